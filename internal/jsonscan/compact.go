package jsonscan

import (
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/view"
)

// AppendCompact appends the compact form of the JSON value s to dst (the
// white space between tokens dropped: the text holds no newline) and
// reports whether s is exactly one valid JSON value of valid UTF-8. When
// it is not, dst is returned as it was.
func AppendCompact(dst []byte, s string) ([]byte, bool) {
	b := view.Bytes(s)
	if !Index(b, nil) || !utf8.Valid(b) {
		return dst, false
	}
	start := 0 // of the text not yet copied
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			dst = append(dst, s[start:i]...)
			start = i + 1
		case '"':
			e, _ := scanString(b, i+1)
			i = e - 1
		}
	}
	return append(dst, s[start:]...), true
}
