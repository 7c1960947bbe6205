package termwrap

// The fast ways of wrapping: each gives exactly what the general way
// (wrapGeneral, split) gives, which FuzzWrapPlain, TestWrapPlainRandom and
// FuzzSplitSGR hold them to.

import "strings"

// splitSGR is split for text whose escapes are all SGR sequences (ESC [
// digits, ';' and ':' m), as styled text is: they are found with
// IndexByte instead of a walk over every grapheme cluster. ok is false
// for any other escape.
func splitSGR(s string) (plain string, marks []mark, ok bool) {
	b := make([]byte, 0, len(s))
	for {
		i := strings.IndexByte(s, 0x1b)
		if i < 0 {
			return string(append(b, s...)), marks, true
		}
		b = append(b, s[:i]...)
		j := i + 2
		if j > len(s) || s[i+1] != '[' {
			return "", nil, false
		}
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
			j++
		}
		if j >= len(s) || s[j] != 'm' {
			return "", nil, false
		}
		marks = append(marks, mark{len(b), s[i : j+1]})
		s = s[j+1:]
	}
}

// wrapPlain wraps text without styles line by line, as wrapGeneral
// would: a line of printable ASCII with no word wider than a row a row at
// a time (the break is the last space that leaves the row at most width
// wide), any other line the general way. ok is false, and dst as it was,
// for styled text (a style carries over lines).
func wrapPlain(dst []Line, s string, width int) (out []Line, ok bool) {
	if strings.IndexByte(s, 0x1b) >= 0 {
		return dst, false
	}
	n0 := len(dst)
	for len(s) > 0 || len(dst) == n0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		at := len(dst)
		if d, ok := plainRows(dst, line, width); ok {
			dst = d
		} else {
			dst = wrapGeneral(dst[:at], line, width, width)
		}
	}
	return dst, true
}

// plainRows appends the rows of one line of printable ASCII whose words
// all fit in a row; ok is false for any other line (dst may then hold
// some of its rows).
func plainRows(dst []Line, line string, width int) ([]Line, bool) {
	if !printableASCII(line) {
		return dst, false
	}
	ind := 0 // the line's indent, kept on its first row
	for ind < len(line) && line[ind] == ' ' {
		ind++
	}
	for start := 0; ; {
		rest := line[start:]
		if len(rest) <= width {
			r := strings.TrimRight(rest, " ")
			return append(dst, Line{r, len(r)}), true
		}
		k := strings.LastIndexByte(rest[:width+1], ' ')
		if k <= ind {
			return dst, false // a word (after the indent) wider than the row
		}
		e := k
		for rest[e-1] == ' ' {
			e--
		}
		dst = append(dst, Line{rest[:e], e})
		start += k + 1
		for start < len(line) && line[start] == ' ' {
			start++
		}
		if start == len(line) {
			return dst, true
		}
		ind = 0
	}
}

// printableASCII reports whether s is all printable ASCII (spaces
// included), eight bytes at a time.
func printableASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if ((x-ones*0x20)&^x|(x+ones)|x)&highs != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// Eight bytes at a time (see scanWord).
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// scanWord returns the end of the word at p[i:] (the next space or
// newline, or the end of p), whether it is all ASCII, and whether it is
// all printable ASCII (its width is then its length). Eight bytes of
// printable ASCII other than a space are passed over at once.
func scanWord(p string, i int) (end int, ascii, printable bool) {
	for ; i+8 <= len(p); i += 8 {
		x := uint64(p[i]) | uint64(p[i+1])<<8 | uint64(p[i+2])<<16 | uint64(p[i+3])<<24 |
			uint64(p[i+4])<<32 | uint64(p[i+5])<<40 | uint64(p[i+6])<<48 | uint64(p[i+7])<<56
		// A byte under 0x21 (a space, a newline, a control) or over 0x7e.
		if ((x-ones*0x21)&^x|(x+ones)|x)&highs != 0 {
			break
		}
	}
	ascii, printable = true, true
	for ; i < len(p) && p[i] != ' ' && p[i] != '\n'; i++ {
		if c := p[i]; c >= 0x7f || c < 0x20 {
			ascii = ascii && c < 0x80
			printable = false
		}
	}
	return i, ascii, printable
}
