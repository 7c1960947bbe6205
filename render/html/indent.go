package html

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
)

// indentJSON lays out a tool's input, JSON text on one line as the
// parsers give it, one member or element per line, indented by two spaces
// a level, for a reader; strings are left as they are (a long command or
// file content stays one line, which the page wraps). Text that is not
// valid JSON is returned as it is. Nothing is decoded: only white space
// outside strings changes.
func indentJSON(s string) string {
	if !strings.ContainsAny(s, "{[") || !jsonscan.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	depth := 0
	newline := func() {
		b.WriteByte('\n')
		for range depth {
			b.WriteString("  ")
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			b.WriteString(s[i:min(j+1, len(s))])
			i = j
		case '{', '[':
			b.WriteByte(c)
			k := i + 1
			for k < len(s) && isSpace(s[k]) {
				k++
			}
			if k < len(s) && (s[k] == '}' || s[k] == ']') {
				b.WriteByte(s[k]) // {} and [] stay as they are
				i = k
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			b.WriteByte(c)
		case ',':
			b.WriteByte(c)
			newline()
		case ':':
			b.WriteString(": ")
		case ' ', '\t', '\n', '\r':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
