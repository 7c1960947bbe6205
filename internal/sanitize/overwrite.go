package sanitize

import (
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/termwrap"
)

// hasLoneCR reports whether s holds a carriage return that is not the
// first half of a CRLF.
func hasLoneCR(s string) bool {
	for {
		i := strings.IndexByte(s, '\r')
		if i < 0 {
			return false
		}
		if i+1 == len(s) || s[i+1] != '\n' {
			return true
		}
		s = s[i+2:]
	}
}

// appendOverwritten is Append with Overwrite: each line is sanitised with
// its lone CRs kept, then drawn as a terminal would leave it.
func appendOverwritten(dst []byte, s string, o Options) []byte {
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line = s[:i+1]
		}
		s = s[len(line):]
		start := len(dst)
		dst = appendText(dst, line, o, true)
		out := dst[start:]
		end := len(out)
		if end > 0 && out[end-1] == '\n' {
			end--
			if o.KeepCR && end > 0 && out[end-1] == '\r' {
				end--
			}
		}
		if !strings.Contains(string(out[:end]), "\r") {
			continue
		}
		drawn := overwrite(out[:end])
		ending := string(out[end:])
		dst = append(append(dst[:start], drawn...), ending...)
	}
	return dst
}

// cell is one character of a line being drawn: where it is in the
// line's bytes, and the style in effect for it (an index in styles).
type cell struct {
	off   int32
	n     int32
	style int32
}

// overwrite draws a sanitised line holding raw CRs (and no other control
// but SGR sequences) as a terminal leaves it: a CR goes back to the start
// of the line and what follows it writes over what was there, character
// by character, each with the style in effect when it was written. A
// line that ends styled ends with a reset.
func overwrite(b []byte) []byte {
	var cells []cell
	var st termwrap.State
	styles := []string{""} // the styles met, the current one last
	at := 0
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '\r':
			at = 0
			i++
			continue
		case c == 0x1b:
			n := sgrSeqLen(string(b[i:min(len(b), i+64)]))
			if n == 0 {
				n = 1 // (cannot happen: the sanitiser leaves no other ESC)
			}
			st.Apply(string(b[i : i+n]))
			if s := st.Open(); s != styles[len(styles)-1] {
				styles = append(styles, s)
			}
			i += n
			continue
		}
		_, n := utf8.DecodeRune(b[i:])
		ch := cell{int32(i), int32(n), int32(len(styles) - 1)}
		if at < len(cells) {
			cells[at] = ch
		} else {
			cells = append(cells, ch)
		}
		at++
		i += n
	}
	out := make([]byte, 0, len(b))
	cur := ""
	for _, c := range cells {
		if s := styles[c.style]; s != cur {
			if cur != "" {
				out = append(out, sgrReset...)
			}
			out = append(out, s...)
			cur = s
		}
		out = append(out, b[c.off:c.off+c.n]...)
	}
	if cur != "" {
		out = append(out, sgrReset...)
	}
	return out
}
