package golden

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// The tokens of an encoded golden file. Each stands for what a terminal
// would act on, or what a diff cannot show: ⟨ESC⟩, ⟨CR⟩ and ⟨BEL⟩ for
// those bytes; ⟨xNN⟩ for any other C0 control byte but newline and tab,
// for DEL and for a byte that is not UTF-8; ⟨U+NNNN⟩ for a C1 control
// character (U+0080–U+009F); and ⟨⟨⟩ for the character ⟨ itself, so that
// no text of the output can be read as a token and every file decodes
// back to exactly the bytes it was made from.
const (
	tokOpen  = "⟨"
	tokClose = "⟩"
)

var names = map[byte]string{0x1b: "ESC", '\r': "CR", 0x07: "BEL"}

// Encode writes b as a golden file holds it (see the tokens above). Text
// without control bytes and without ⟨ is unchanged.
func Encode(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/8)
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f):
			out = append(out, c)
			i++
			continue
		case c < 0x20 || c == 0x7f:
			if n, ok := names[c]; ok {
				out = append(out, tokOpen+n+tokClose...)
			} else {
				out = fmt.Appendf(out, tokOpen+"x%02X"+tokClose, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = fmt.Appendf(out, tokOpen+"x%02X"+tokClose, c)
		case r >= 0x80 && r <= 0x9f:
			out = fmt.Appendf(out, tokOpen+"U+%04X"+tokClose, r)
		case r == '⟨':
			out = append(out, tokOpen+tokOpen+tokClose...)
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// Decode turns an encoded golden file back into the bytes it was made
// from. It fails on a ⟨ that starts no token.
func Decode(e []byte) ([]byte, error) {
	out := make([]byte, 0, len(e))
	for i := 0; i < len(e); {
		if !bytes.HasPrefix(e[i:], []byte(tokOpen)) {
			out = append(out, e[i])
			i++
			continue
		}
		start := i
		i += len(tokOpen)
		if bytes.HasPrefix(e[i:], []byte(tokOpen+tokClose)) {
			out = append(out, tokOpen...)
			i += len(tokOpen + tokClose)
			continue
		}
		end := bytes.Index(e[i:], []byte(tokClose))
		if end < 0 || end > 8 {
			return nil, fmt.Errorf("byte %d: ⟨ starts no token", start)
		}
		name := string(e[i : i+end])
		i += end + len(tokClose)
		if c, ok := byName(name); ok {
			out = append(out, c)
			continue
		}
		switch {
		case len(name) == 3 && name[0] == 'x':
			v, err := strconv.ParseUint(name[1:], 16, 8)
			if err != nil {
				return nil, fmt.Errorf("byte %d: bad token ⟨%s⟩", start, name)
			}
			out = append(out, byte(v))
		case len(name) == 6 && name[:2] == "U+":
			v, err := strconv.ParseUint(name[2:], 16, 16)
			if err != nil || v < 0x80 || v > 0x9f {
				return nil, fmt.Errorf("byte %d: bad token ⟨%s⟩", start, name)
			}
			out = utf8.AppendRune(out, rune(v))
		default:
			return nil, fmt.Errorf("byte %d: unknown token ⟨%s⟩", start, name)
		}
	}
	return out, nil
}

func byName(name string) (byte, bool) {
	for c, n := range names {
		if n == name {
			return c, true
		}
	}
	return 0, false
}
