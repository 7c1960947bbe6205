// Package sanitize makes untrusted text (assistant text, tool output, file
// contents, raw lines) safe to write to a terminal or a CI log: control
// characters are shown visibly instead of being obeyed.
//
//	sanitize.String("\x1b]0;pwned\x07hi", sanitize.Options{}) == "␛]0;pwned␇hi"
package sanitize

import (
	"fmt"
	"unicode/utf8"
)

// Options choose what may pass.
type Options struct {
	// AllowSGR lets SGR colour sequences (ESC [ … m) through, and no other
	// control sequence (--allow-color).
	AllowSGR bool
	// KeepCR keeps a carriage return before a newline (it is dropped
	// otherwise); a lone CR is always shown as ␍.
	KeepCR bool
}

// String returns s with every terminal control made visible.
func String(s string, o Options) string {
	if clean(s) {
		return s
	}
	return string(Append(make([]byte, 0, len(s)+16), s, o))
}

// clean reports whether s needs no change: printable ASCII, tab and
// newline only.
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c == 0x7f || (c < 0x20 && c != '\t' && c != '\n') {
			return false
		}
	}
	return true
}

// Append appends the sanitised s to dst.
func Append(dst []byte, s string, o Options) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			switch {
			case c == '\t' || c == '\n' || (c >= 0x20 && c != 0x7f):
				dst = append(dst, c)
			case c == 0x1b:
				if o.AllowSGR {
					if n := sgrLen(s[i:]); n > 0 {
						dst = append(dst, s[i:i+n]...)
						i += n
						continue
					}
				}
				dst = append(dst, "␛"...)
			case c == '\r':
				if i+1 < len(s) && s[i+1] == '\n' {
					if o.KeepCR {
						dst = append(dst, '\r')
					}
				} else {
					dst = append(dst, "␍"...)
				}
			case c == 0x7f:
				dst = append(dst, "␡"...)
			default: // other C0 controls: the Control Pictures block
				dst = utf8.AppendRune(dst, rune(0x2400+int(c)))
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, "\uFFFD"...)
		case r >= 0x80 && r <= 0x9f, // C1 controls, including the one-character CSI
			r >= 0x202a && r <= 0x202e, // bidi embeddings and overrides
			r >= 0x2066 && r <= 0x2069: // bidi isolates
			dst = fmt.Appendf(dst, "<U+%04X>", r)
		default:
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}

// sgrLen returns the length of an SGR sequence (ESC [ params m) at the
// start of s, or 0.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s) && i < 64; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}
