package parsers

import (
	"errors"
	"io"

	"github.com/agentfmt/agentfmt/internal/input"
)

// ReadAll decodes all of r with agentfmt's own line reader, as the command
// does: lines of any length, CRLF and a BOM, a file holding one JSON array
// of events or one pretty-printed document (OpenClaw, Gemini's -o json),
// a last line cut off. Then it closes the decoder. What the decoder's
// Emit returns (a --strict violation, a closed output) ends it, as does
// an error reading r.
func (d *Decoder) ReadAll(r io.Reader) error {
	in := input.NewReader(r, 0)
	for {
		l, err := in.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if err := d.Decode(l); err != nil {
			return err
		}
	}
	return d.Close()
}
