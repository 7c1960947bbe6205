// Package termwrap measures and breaks styled terminal text: widths in
// cells (grapheme clusters, wide East Asian characters and emoji), line
// breaking at the opportunities of Unicode UAX #14, and SGR styles that
// are closed at the end of each row and reopened on the next. The live
// renderer (render.Pretty) and the terminal markdown renderer
// (internal/mdterm) share it, so every row they make fits the terminal.
package termwrap

import (
	"github.com/clipperhouse/uax29/v2/graphemes"
	"github.com/mattn/go-runewidth"
)

// cellCond measures text in terminal cells: grapheme clusters as one
// glyph, emoji wide, East Asian ambiguous characters narrow (what most
// terminals do whatever the locale). Fixed, so output does not depend on
// the environment.
var cellCond = &runewidth.Condition{StrictEmojiNeutral: true}

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
// cells. An escape sequence (only SGR reaches here) is one cluster of
// width zero with sgr set. fn returns false to stop.
func EachCluster(s string, fn func(c string, w int, sgr bool) bool) {
	it := graphemes.FromString(s)
	it.AnsiEscapeSequences = true
	for it.Next() {
		c := it.Value()
		switch b := c[0]; {
		case b == 0x1b:
			if !fn(c, 0, true) {
				return
			}
			continue
		case len(c) == 1 && b < 0x80:
			w := 1
			if b < 0x20 || b == 0x7f {
				w = 0
			}
			if !fn(c, w, false) {
				return
			}
			continue
		}
		if !fn(c, cellCond.StringWidth(c), false) {
			return
		}
	}
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
func RuneWidth(r rune) int { return cellCond.RuneWidth(r) }

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
