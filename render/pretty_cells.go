package render

import (
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/termwrap"
)

// row is one physical terminal row: the bytes to write (SGR sequences
// included, no newline) and the cells it covers. A row never leaves an
// SGR attribute switched on at its end, so rows can be written in any
// order and erased with the default background.
type row struct {
	s string
	w int
	// keep marks a row of the live region that a region cut to fit the
	// screen keeps (Pretty.clip): a call's running line, a plan's rows.
	keep bool
	// call marks a running call's line (a keep row): the rows a lane's
	// share of the region keeps first (pickRows).
	call bool
}

// sgrState is the set of SGR attributes in effect (termwrap.State).
type sgrState = termwrap.State

// The cell measures of internal/termwrap, by their short names.
func asciiPrefix(s string) int { return termwrap.ASCIIPrefix(s) }
func cells(s string) int       { return termwrap.Width(s) }
func eachCluster(s string, fn func(c string, w int, sgr bool) bool) {
	termwrap.EachCluster(s, fn)
}
func fitCells(s string, avail int) (n, w int) { return termwrap.Fit(s, avail) }
func truncLeft(s string, avail int) string    { return termwrap.TruncLeft(s, avail) }

// wrapStyled breaks one styled line (SGR allowed, no newline) into rows of
// at most avail cells after a prefix on each row (first on the first row,
// rest on the others; both pw cells wide), at the line break
// opportunities of UAX #14 (termwrap.Wrap). With one set, the line is cut
// to a single row ending in an ellipsis instead.
func wrapStyled(dst []row, s string, avail int, first, rest string, pw int, one bool) []row {
	avail = max(avail, 1)
	if one {
		l := termwrap.Truncate(s, avail)
		return append(dst, row{s: first + l.S, w: pw + l.W})
	}
	for i, l := range termwrap.Wrap(s, avail) {
		p := rest
		if i == 0 {
			p = first
		}
		if l.S == "" {
			p = strings.TrimRight(p, " ")
			return append(dst, row{s: p, w: cells(p)})
		}
		if p != "" {
			l.S = p + l.S
		}
		dst = append(dst, row{s: l.S, w: pw + l.W})
	}
	return dst
}

// lines2rows appends termwrap lines after a prefix (first on the first
// row, rest on the others; both pw cells wide). An empty line gets empty
// (if set) or nothing.
func lines2rows(dst []row, ls []termwrap.Line, first, rest, empty string, pw int) []row {
	for i, l := range ls {
		p := rest
		if i == 0 {
			p = first
		}
		if l.S == "" {
			dst = append(dst, row{s: empty, w: cells(empty)})
			continue
		}
		if p != "" {
			l.S = p + l.S
		}
		dst = append(dst, row{s: l.S, w: pw + l.W})
	}
	return dst
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
	return termwrap.RuneWidth(r) == 0
}

// keepWhole marks rows as rows the live region keeps whole (row.keep).
func keepWhole(rows []row) []row {
	for i := range rows {
		rows[i].keep = true
	}
	return rows
}

// pickRows is n of a live block's rows, in their order, when a lane's
// share of the region is smaller than the block: first every running
// call's line (as many as fit), then the bottom rows, where a run of
// keep rows (a plan) goes whole or not at all. When the calls' lines do
// not all fit, the last row says how many more run (more).
func pickRows(rows []row, n int, more func(int) row) []row {
	if len(rows) <= n {
		return rows
	}
	take := make([]bool, len(rows))
	calls, left := 0, 0
	for _, rw := range rows {
		if rw.call {
			calls++
		}
	}
	room := n // the calls' lines that fit, the last row counting the rest
	if calls > n {
		room, left = n-1, calls-(n-1)
	}
	for i, rw := range rows {
		if rw.call && room > 0 {
			take[i] = true
			room--
			n--
		}
	}
	if left > 0 {
		n = 0
	}
	for i := len(rows) - 1; i >= 0 && n > 0; {
		if take[i] {
			i--
			continue
		}
		j := i // the unit: one row, or a run of keep rows
		for rows[i].keep && j > 0 && rows[j-1].keep && !take[j-1] {
			j--
		}
		if size := i - j + 1; size <= n {
			for k := j; k <= i; k++ {
				take[k] = true
			}
			n -= size
		} else if !rows[i].keep {
			break
		}
		i = j - 1
	}
	out := make([]row, 0, len(rows))
	for i, rw := range rows {
		if take[i] {
			out = append(out, rw)
		}
	}
	if left > 0 {
		out = append(out, more(left))
	}
	return out
}
