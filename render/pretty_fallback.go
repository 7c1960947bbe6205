package render

import "io"

// Until the live renderer lands, pretty is plain with colour.
func init() {
	Register("pretty", func(w io.Writer, cfg Config) Renderer { return NewPlain(w, cfg) })
}
