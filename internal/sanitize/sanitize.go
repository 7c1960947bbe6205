// Package sanitize makes untrusted text (assistant text, tool output, file
// contents, raw lines) safe to write to a terminal or a CI log: control
// characters are shown visibly instead of being obeyed.
//
//	sanitize.String("\x1b]0;pwned\x07hi", sanitize.Options{}) == "␛]0;pwned␇hi"
package sanitize

import (
	"fmt"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/simd"
	"github.com/agentfmt/agentfmt/internal/view"
)

// Options choose what may pass.
type Options struct {
	// SGR says what becomes of SGR sequences (ESC [ … m): shown visibly
	// (the zero value), left out, drawn, or let through (--allow-color).
	// No other control sequence ever passes.
	SGR SGR
	// KeepCR keeps a carriage return before a newline (it is dropped
	// otherwise).
	KeepCR bool
	// Overwrite makes a carriage return inside a line go back to the
	// line's start, what follows it writing over what was there, so that
	// a progress line ("50%\r100%") reads as a terminal shows it ("100%").
	// Otherwise a lone CR is shown as ␍.
	Overwrite bool
}

// String returns s with every terminal control made visible. Text that
// needs no change (the usual case) is returned as it is, without a copy.
func String(s string, o Options) string {
	i := safePrefix(s)
	if i == len(s) {
		return s
	}
	if o.Overwrite && hasLoneCR(s[i:]) {
		i = 0 // a CR may write over the start of its line
	}
	// What comes before the first change is kept as it is: Append would
	// copy it unchanged. The result is made once, the size of what it
	// will hold (a control byte shown as ␀ takes three), and is the
	// string returned, not copied into one.
	dst := make([]byte, 0, len(s)+2*controls(s[i:])+16)
	return view.String(Append(append(dst, s[:i]...), s[i:], o))
}

// controls counts the C0 controls and DEL in s but tab and newline: the
// bytes String shows as a picture of three bytes.
func controls(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f {
			n++
		}
	}
	return n
}

// clean reports whether s needs no change.
func clean(s string) bool { return safePrefix(s) == len(s) }

// Clean reports whether String(s, o) is s, for any o: s holds nothing a
// terminal would obey (no control character but tab and newline, no C1
// control, no bidi override, valid UTF-8).
func Clean(s string) bool { return safePrefix(s) == len(s) }

// safePrefix returns the length of the longest start of s that Append
// copies unchanged: printable ASCII, tab, newline, and valid UTF-8 other
// than C1 controls and bidi overrides. Runs of plain ASCII are checked by
// simd.ASCIIRun (sixteen bytes at a time on amd64), other characters one by
// one.
func safePrefix(s string) int {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			n := simd.ASCIIRun(s[i:])
			if n == 0 {
				return i // a control character
			}
			i += n
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1,
			r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e,
			r >= 0x2066 && r <= 0x2069:
			return i
		}
		i += n
	}
	return i
}

// sgrReset ends the colours a line of tool output set (DrawSGR, PassSGR).
const sgrReset = "\x1b[0m"

// Append appends the sanitised s to dst. With DrawSGR or PassSGR, a line
// that set colours ends with a reset (before its newline, and at the end
// of s), so that a tool's "ESC[30;40m" cannot bleed into what follows and
// hide it.
func Append(dst []byte, s string, o Options) []byte {
	if o.Overwrite && hasLoneCR(s) {
		return appendOverwritten(dst, s, o)
	}
	return appendText(dst, s, o, false)
}

// appendText is Append without Overwrite; with rawCR, a lone CR is
// written as it is (for appendOverwritten to resolve).
func appendText(dst []byte, s string, o Options, rawCR bool) []byte {
	colour := false // an SGR other than a reset passed on this line
	var drawn pen   // the colours DrawSGR drew on this line
	for i := 0; i < len(s); {
		if !colour {
			// What needs no change is copied at once (without colour
			// set, a newline needs no reset before it either).
			n := safePrefix(s[i:])
			dst = append(dst, s[i:i+n]...)
			if i += n; i == len(s) {
				break
			}
		}
		c := s[i]
		if c < 0x80 {
			switch {
			case c == '\n':
				if colour {
					dst = append(dst, sgrReset...)
					colour = false
				}
				drawn = pen{}
				dst = append(dst, c)
			case c == '\t' || (c >= 0x20 && c != 0x7f):
				dst = append(dst, c)
			case c == 0x1b:
				if n := sgrSeqLen(s[i:]); n > 0 && o.SGR != ShowSGR {
					p := s[i+2 : i+n-1]
					switch o.SGR {
					case DropSGR:
						i += n
						continue
					case DrawSGR:
						if seq := drawable(p); seq != "" {
							dst = append(dst, drawn.draw(seq)...)
							colour = !isReset(seq)
						}
						i += n
						continue
					case PassSGR:
						if !conceals(p) {
							dst = append(dst, s[i:i+n]...)
							colour = p != "" && p != "0" && p != "00"
							i += n
							continue
						}
					}
				}
				dst = append(dst, "␛"...)
			case c == '\r':
				if colour && i+1 < len(s) && s[i+1] == '\n' {
					dst = append(dst, sgrReset...)
					colour = false
				}
				switch {
				case i+1 < len(s) && s[i+1] == '\n':
					if o.KeepCR {
						dst = append(dst, '\r')
					}
				case rawCR:
					dst = append(dst, '\r')
				default:
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
	if colour {
		dst = append(dst, sgrReset...)
	}
	return dst
}

// sgrLen returns the length of an SGR colour sequence (ESC [ params m) at
// the start of s, or 0. A sequence that conceals text (parameter 8) is not
// colour: it would hide what follows, so it is refused.
func sgrLen(s string) int {
	n := sgrSeqLen(s)
	if n == 0 || conceals(s[2:n-1]) {
		return 0
	}
	return n
}

// sgrSeqLen returns the length of an SGR sequence (ESC [ params m, the
// parameters digits, ';' and ':', at most 60 of them) at the start of s,
// or 0.
func sgrSeqLen(s string) int {
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

// conceals reports whether SGR parameters turn on concealed text (8),
// skipping the arguments of extended colours (38;5;n, 38;2;r;g;b and
// their 48 and 58 forms; colon forms are one parameter).
func conceals(params string) bool {
	var ps []string
	for len(params) > 0 {
		p, rest, _ := cutByte(params, ';')
		ps = append(ps, p)
		params = rest
	}
	for i := 0; i < len(ps); i++ {
		switch p := trimZeros(ps[i]); p {
		case "8":
			return true
		case "38", "48", "58":
			if i+1 < len(ps) {
				switch trimZeros(ps[i+1]) {
				case "5":
					i += 2
				case "2":
					i += 4
				}
			}
		}
	}
	return false
}

func cutByte(s string, c byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// trimZeros makes "008" read as "8", as terminals do.
func trimZeros(p string) string {
	for len(p) > 1 && p[0] == '0' {
		p = p[1:]
	}
	return p
}
