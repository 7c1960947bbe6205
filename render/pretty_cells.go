package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/graphemes"
	"github.com/mattn/go-runewidth"
)

// cellCond measures text in terminal cells: grapheme clusters as one
// glyph, emoji wide, East Asian ambiguous characters narrow (what most
// terminals do whatever the locale). Fixed, so output does not depend on
// the environment.
var cellCond = &runewidth.Condition{StrictEmojiNeutral: true}

// row is one physical terminal row: the bytes to write (SGR sequences
// included, no newline) and the cells it covers. A row never leaves an
// SGR attribute switched on at its end, so rows can be written in any
// order and erased with the default background.
type row struct {
	s string
	w int
}

// asciiPrefix returns how many leading bytes of s are printable ASCII.
func asciiPrefix(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return i
		}
	}
	return len(s)
}

// eachCluster calls fn for every grapheme cluster of s with its width in
// cells. An escape sequence (only SGR reaches here) is one cluster of width
// zero with sgr set. fn returns false to stop.
func eachCluster(s string, fn func(c string, w int, sgr bool) bool) {
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

// cells is the width of s in terminal cells; SGR sequences take none.
func cells(s string) int {
	if n := asciiPrefix(s); n == len(s) {
		return n
	}
	w := 0
	eachCluster(s, func(_ string, cw int, _ bool) bool { w += cw; return true })
	return w
}

// fitCells returns the length in bytes and the width of the longest prefix
// of plain text s (no escape sequences) that fits in avail cells, cut
// between grapheme clusters. At least one cluster is taken when s is not
// empty, so a glyph wider than avail cannot stall wrapping.
func fitCells(s string, avail int) (n, w int) {
	a := asciiPrefix(s)
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
	eachCluster(s[start:], func(c string, cw int, _ bool) bool {
		if w+cw > avail && n > 0 {
			return false
		}
		n += len(c)
		w += cw
		return true
	})
	return n, w
}

// sgrState is the set of SGR attributes in effect, enough to reopen them
// on the next row or after moving the cursor into the middle of a row.
type sgrState struct {
	attrs  uint16 // bit i: SGR attribute i+1 (bold … strike) is on
	fg, bg string // colour parameters ("31", "38;5;208"), "" for default
}

func (s sgrState) zero() bool { return s.attrs == 0 && s.fg == "" && s.bg == "" }

// open is the sequence that switches the state on from the default.
func (s sgrState) open() string {
	if s.zero() {
		return ""
	}
	var b strings.Builder
	b.WriteString("\x1b[")
	sep := ""
	for i := 0; i < 9; i++ {
		if s.attrs&(1<<i) != 0 {
			b.WriteString(sep)
			b.WriteString(strconv.Itoa(i + 1))
			sep = ";"
		}
	}
	for _, c := range []string{s.fg, s.bg} {
		if c != "" {
			b.WriteString(sep)
			b.WriteString(c)
			sep = ";"
		}
	}
	b.WriteByte('m')
	return b.String()
}

// apply folds one SGR sequence (ESC [ params m) into the state.
func (s *sgrState) apply(seq string) {
	if len(seq) < 3 || seq[len(seq)-1] != 'm' {
		return
	}
	params := seq[2 : len(seq)-1]
	if params == "" {
		*s = sgrState{}
		return
	}
	ps := strings.FieldsFunc(params, func(r rune) bool { return r == ';' })
	for i := 0; i < len(ps); i++ {
		p := ps[i]
		if strings.ContainsRune(p, ':') { // 38:5:n, 4:3 — kept whole
			switch {
			case strings.HasPrefix(p, "38"):
				s.fg = p
			case strings.HasPrefix(p, "48"):
				s.bg = p
			}
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			continue
		}
		switch {
		case n == 0:
			*s = sgrState{}
		case n >= 1 && n <= 9:
			s.attrs |= 1 << (n - 1)
		case n == 21 || n == 22:
			s.attrs &^= 1<<0 | 1<<1
		case n >= 23 && n <= 29:
			s.attrs &^= 1 << (n - 21) // 23 italic off … 29 strike off
		case n >= 30 && n <= 37, n >= 90 && n <= 97:
			s.fg = p
		case n == 39:
			s.fg = ""
		case n >= 40 && n <= 47, n >= 100 && n <= 107:
			s.bg = p
		case n == 49:
			s.bg = ""
		case n == 38 || n == 48:
			// 38;5;n or 38;2;r;g;b
			k := i + 1
			if k < len(ps) && ps[k] == "5" {
				k += 2
			} else if k < len(ps) && ps[k] == "2" {
				k += 4
			}
			k = min(k, len(ps))
			c := strings.Join(ps[i:k], ";")
			if n == 38 {
				s.fg = c
			} else {
				s.bg = c
			}
			i = k - 1
		}
	}
}

// wrapStyled breaks one styled line (SGR allowed, no newline) into rows of
// at most avail cells after a prefix on each row (first on the first row,
// rest on the others; both w cells wide). Styles open at a row's end are
// closed there and reopened on the next row. With one set, the line is cut
// to a single row ending in an ellipsis instead.
func wrapStyled(dst []row, s string, avail int, first, rest string, pw int, one bool) []row {
	avail = max(avail, 1)
	if a := asciiPrefix(s); a == len(s) {
		// Plain ASCII: no styles, one byte per cell.
		if len(s) <= avail {
			return append(dst, row{first + s, pw + len(s)})
		}
		if one {
			return append(dst, row{first + s[:avail-1] + "…", pw + avail})
		}
		p := first
		for len(s) > avail {
			dst = append(dst, row{p + s[:avail], pw + avail})
			s = s[avail:]
			p = rest
		}
		return append(dst, row{p + s, pw + len(s)})
	}
	var b strings.Builder
	b.WriteString(first)
	var st sgrState
	w := 0
	if one && cells(s) > avail {
		avail-- // room for the ellipsis
	}
	cut := false
	eachCluster(s, func(c string, cw int, sgr bool) bool {
		if sgr {
			b.WriteString(c)
			st.apply(c)
			return true
		}
		if w+cw > avail && w > 0 {
			if one {
				cut = true
				return false
			}
			if !st.zero() {
				b.WriteString("\x1b[0m")
			}
			dst = append(dst, row{b.String(), pw + w})
			b.Reset()
			b.WriteString(rest)
			b.WriteString(st.open())
			w = 0
		}
		b.WriteString(c)
		w += cw
		return true
	})
	if cut {
		b.WriteString("…")
		w++
	}
	if !st.zero() {
		b.WriteString("\x1b[0m")
	}
	return append(dst, row{b.String(), pw + w})
}

// truncLeft keeps the last cells of plain text s that fit in avail cells,
// with an ellipsis in front when something was cut.
func truncLeft(s string, avail int) string {
	total := cells(s)
	if total <= avail {
		return s
	}
	drop := total - (avail - 1)
	i := 0
	eachCluster(s, func(c string, cw int, _ bool) bool {
		if drop <= 0 {
			return false
		}
		drop -= cw
		i += len(c)
		return true
	})
	return "…" + s[i:]
}

// isZeroWidthStart reports whether the rune starting s joins the cluster
// before it (combining marks, joiners, variation selectors, emoji
// modifiers), so a row must not be rewritten from there.
func isZeroWidthStart(s string) bool {
	if s == "" || s[0] < 0x80 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	if r >= 0x1f3fb && r <= 0x1f3ff {
		return true
	}
	return cellCond.RuneWidth(r) == 0
}
