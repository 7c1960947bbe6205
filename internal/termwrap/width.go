// Package termwrap measures and breaks styled terminal text: widths in
// cells (grapheme clusters, wide East Asian characters and emoji), line
// breaking at the opportunities of Unicode UAX #14, and SGR styles that
// are closed at the end of each row and reopened on the next. The live
// renderer (render.Pretty) and the terminal markdown renderer
// (internal/mdterm) share it, so every row they make fits the terminal.
package termwrap

import "github.com/rivo/uniseg"

// ASCIIPrefix returns how many leading bytes of s are printable ASCII.
func ASCIIPrefix(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return i
		}
	}
	return len(s)
}

// EachCluster calls fn for every grapheme cluster of s with its width in
// cells (uniseg's: emoji wide, East Asian ambiguous characters narrow,
// what most terminals do whatever the locale). An escape sequence (only
// SGR reaches here) is one cluster of width zero with sgr set. fn returns
// false to stop.
func EachCluster(s string, fn func(c string, w int, sgr bool) bool) {
	state := -1
	for s != "" {
		var c string
		var w int
		switch b := s[0]; {
		case b == 0x1b:
			n := escapeLen(s)
			if !fn(s[:n], 0, true) {
				return
			}
			s, state = s[n:], -1
			continue
		case b < 0x80 && (len(s) == 1 || s[1] < 0x80 && s[1] != 0x1b):
			// ASCII followed by ASCII: a cluster of its own (but a CR
			// before an LF, which uniseg joins).
			if b == '\r' && s[1:2] == "\n" {
				break
			}
			w = 1
			if b < 0x20 || b == 0x7f {
				w = 0
			}
			if !fn(s[:1], w, false) {
				return
			}
			s, state = s[1:], -1
			continue
		}
		c, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
		if c[0] < 0x20 || c[0] == 0x7f {
			w = 0
		}
		if !fn(c, w, false) {
			return
		}
	}
}

// escapeLen is the length of the escape sequence at the start of s: ESC
// [ and its parameters up to the final byte, or ESC alone.
func escapeLen(s string) int {
	if len(s) < 2 || s[1] != '[' {
		return 1
	}
	for i := 2; i < len(s); i++ {
		if c := s[i]; c >= 0x40 && c <= 0x7e {
			return i + 1
		}
	}
	return len(s)
}

// Width is the width of s in terminal cells; SGR sequences take none.
func Width(s string) int {
	if n := ASCIIPrefix(s); n == len(s) {
		return n
	}
	w := 0
	EachCluster(s, func(_ string, cw int, _ bool) bool { w += cw; return true })
	return w
}

// RuneWidth is the width of one rune (0 for combining marks and joiners).
func RuneWidth(r rune) int {
	if r < 0x80 {
		if r < 0x20 || r == 0x7f {
			return 0
		}
		return 1
	}
	return uniseg.StringWidth(string(r))
}

// Fit returns the length in bytes and the width of the longest prefix of
// plain text s (no escape sequences) that fits in avail cells, cut between
// grapheme clusters. At least one cluster is taken when s is not empty, so
// a glyph wider than avail cannot stall wrapping.
func Fit(s string, avail int) (n, w int) {
	avail = max(avail, 1)
	// (Only as far as a row can reach: a word of megabytes is cut into
	// rows one Fit at a time.)
	a := ASCIIPrefix(s[:min(len(s), avail+1)])
	if a >= avail && (len(s) == avail || s[avail] < 0x80) {
		return avail, avail
	}
	if a == len(s) {
		return len(s), len(s)
	}
	// Fall back to clusters from the last ASCII byte that cannot be joined
	// to what follows (a combining mark may attach to the byte before it).
	start := max(0, a-1)
	if start >= avail {
		start = avail - 1
	}
	n, w = start, start
	EachCluster(s[start:], func(c string, cw int, _ bool) bool {
		if w+cw > avail && n > 0 {
			return false
		}
		n += len(c)
		w += cw
		return true
	})
	return n, w
}
