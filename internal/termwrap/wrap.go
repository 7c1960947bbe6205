package termwrap

import (
	"strings"

	"github.com/rivo/uniseg"
)

// Line is one terminal row: the bytes to write (SGR sequences included,
// no newline) and the cells it covers. A Line never leaves an SGR
// attribute switched on at its end.
type Line struct {
	S string
	W int
}

// mark is an SGR sequence at a byte offset of the plain text.
type mark struct {
	pos int
	seq string
}

// split separates styled text into plain text and its SGR sequences.
func split(s string) (string, []mark) {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s, nil
	}
	if plain, marks, ok := splitSGR(s); ok {
		return plain, marks
	}
	return splitClusters(s)
}

// splitClusters is split by grapheme clusters, for any escape.
func splitClusters(s string) (string, []mark) {
	var b strings.Builder
	var marks []mark
	EachCluster(s, func(c string, _ int, sgr bool) bool {
		if sgr {
			marks = append(marks, mark{b.Len(), c})
		} else {
			b.WriteString(c)
		}
		return true
	})
	return b.String(), marks
}

// Wrap breaks one line of styled text into rows of at most width cells.
// Rows break at the line break opportunities of UAX #14 (after spaces,
// around ideographs, after hyphens and slashes, …), never inside a word
// unless the word alone is wider than a row; the spaces at a break are
// dropped, so no row ends in a space. A newline in s is a forced break.
// Styles open at a row's end are closed there and reopened on the next.
func Wrap(s string, width int) []Line { return AppendWrap(nil, s, width) }

// AppendWrap is Wrap appending to dst.
func AppendWrap(dst []Line, s string, width int) []Line { return appendWrap(dst, s, width, width) }

// WrapHanging is Wrap with rows after the first rest cells wide (a hanging
// indent: the caller puts the indent before them).
func WrapHanging(s string, first, rest int) []Line { return appendWrap(nil, s, first, rest) }

// AppendWrapIndented is AppendWrap with pre written before the first row
// and preRest before the others, but not before an empty row (no row ends
// in a space): the rows and their prefixes are one new string, not one
// each. The widths of the rows do not count the prefixes.
func AppendWrapIndented(dst []Line, s string, width int, pre, preRest string) []Line {
	n0 := len(dst)
	dst = appendWrap(dst, s, width, width)
	if pre != "" || preRest != "" {
		prefix(dst[n0:], pre, preRest)
	}
	return dst
}

// prefix puts pre before the first of rows and preRest before the others
// (not before an empty row), all of them in one new string.
func prefix(rows []Line, pre, preRest string) {
	p, size := pre, 0
	for _, l := range rows {
		if l.S != "" {
			size += len(p) + len(l.S)
		}
		p = preRest
	}
	var b strings.Builder
	b.Grow(size)
	p = pre
	for _, l := range rows {
		if l.S != "" {
			b.WriteString(p)
			b.WriteString(l.S)
		}
		p = preRest
	}
	all, off := b.String(), 0
	p = pre
	for i := range rows {
		if rows[i].S != "" {
			n := len(p) + len(rows[i].S)
			rows[i].S = all[off : off+n]
			off += n
		}
		p = preRest
	}
}

func appendWrap(dst []Line, s string, first, rest int) []Line {
	first, rest = max(first, 1), max(rest, 1)
	if a := ASCIIPrefix(s); a == len(s) && len(s) <= first {
		t := strings.TrimRight(s, " ")
		return append(dst, Line{t, len(t)})
	}
	if first == rest {
		if d, ok := wrapPlain(dst, s, first); ok {
			return d
		}
	}
	return wrapGeneral(dst, s, first, rest)
}

// wrapGeneral wraps any text: words one by one, UAX #14 inside the words
// that need it, styles carried over rows.
func wrapGeneral(dst []Line, s string, first, rest int) []Line {
	plain, marks := split(s)
	w := &wrapper{plain: plain, marks: marks, dst: dst, rest: rest}
	w.run(first)
	return w.dst
}

type wrapper struct {
	plain string
	marks []mark
	k     int // marks before k are applied to st
	st    State
	dst   []Line
	rest  int // the width of rows after the first
	width int // the width of the row being made
}

// emit appends the row plain[a:e] of w cells with its styles.
func (w *wrapper) emit(a, e, cw int) {
	for w.k < len(w.marks) && w.marks[w.k].pos <= a {
		w.st.Apply(w.marks[w.k].seq)
		w.k++
	}
	w.width = w.rest
	if (w.k == len(w.marks) || w.marks[w.k].pos >= e) && w.st.Zero() {
		// Plain text without styles: the row is a part of the text.
		w.dst = append(w.dst, Line{w.plain[a:e], cw})
		return
	}
	var b strings.Builder
	b.Grow(e - a + 16)
	b.WriteString(w.st.Open())
	at := a
	for w.k < len(w.marks) && w.marks[w.k].pos < e {
		m := w.marks[w.k]
		b.WriteString(w.plain[at:m.pos])
		b.WriteString(m.seq)
		w.st.Apply(m.seq)
		at = m.pos
		w.k++
	}
	b.WriteString(w.plain[at:e])
	if !w.st.Zero() {
		b.WriteString(Reset)
	}
	w.dst = append(w.dst, Line{b.String(), cw})
}

func (w *wrapper) run(first int) {
	w.width = first
	p := w.plain
	pos := 0
	rowStart, rowEnd, rowW, rowCW := 0, 0, 0, 0 // rowW counts trailing spaces, rowCW not
	empty := true
	rows := len(w.dst)
	sub, subState := "", -1 // the rest of a word broken by UAX #14
	next := func() (seg string, must, printable bool) {
		// Spaces are break opportunities (UAX #14 breaks after them); a
		// word between two is broken by UAX #14 itself when it holds
		// anything but ASCII (ideographs break between them) or is wider
		// than the row (a path breaks after a slash) — so the segmenter,
		// the costly part, sees little of most text.
		if sub != "" {
			seg, sub, must, subState = uniseg.FirstLineSegmentInString(sub, subState)
			return seg, must, false
		}
		i, ascii, printable := scanWord(p, pos)
		j := i
		for j < len(p) && p[j] == ' ' {
			j++
		}
		if j < len(p) && p[j] == '\n' {
			j++
			must = true
		}
		if !ascii || i-pos > w.width {
			seg, sub, must, subState = uniseg.FirstLineSegmentInString(p[pos:j], -1)
			return seg, must, false
		}
		return p[pos:j], must, printable
	}
	for pos < len(p) {
		seg, must, printable := next()
		a := pos
		pos += len(seg)
		// body is the word without the spaces and line end after it,
		// sw the cells of those spaces.
		be, sw := len(seg), 0
		for ; be > 0; be-- {
			if c := seg[be-1]; c == ' ' {
				sw++
			} else if c != '\r' && c != '\n' {
				break
			}
		}
		body := seg[:be]
		ce := a + len(body)
		bw := len(body)
		if !printable {
			bw = Width(body)
		}
		if !empty && bw > 0 && rowW+bw > w.width {
			w.emit(rowStart, rowEnd, rowCW)
			empty = true
		}
		if empty {
			rowStart, rowEnd, rowW, rowCW = a, a, 0, 0
		}
		switch {
		case empty && bw > w.width:
			// A word wider than a row: cut between grapheme clusters.
			x := a
			for {
				n, fw := Fit(p[x:ce], w.width)
				if x+n >= ce {
					rowStart, rowEnd, rowW, rowCW = x, ce, fw, fw
					break
				}
				w.emit(x, x+n, fw)
				x += n
			}
		case len(body) > 0: // (a word of no width, a lone combining mark, is kept too)
			rowEnd = ce
			rowW += bw
			rowCW = rowW
		}
		empty = false
		rowW += sw
		if must && strings.HasSuffix(seg, "\n") {
			w.emit(rowStart, rowEnd, rowCW)
			empty = true
			rowStart, rowEnd = pos, pos
		}
	}
	if !empty || len(w.dst) == rows {
		w.emit(rowStart, rowEnd, rowCW)
	}
}

// Truncate cuts styled text to one row of at most width cells, ending in
// an ellipsis when something was cut.
func Truncate(s string, width int) Line {
	width = max(width, 1)
	total := Width(s)
	if total <= width {
		return Line{s, total}
	}
	avail := width - 1 // room for the ellipsis
	var b strings.Builder
	var st State
	w := 0
	EachCluster(s, func(c string, cw int, sgr bool) bool {
		if sgr {
			b.WriteString(c)
			st.Apply(c)
			return true
		}
		if w+cw > avail {
			return false
		}
		b.WriteString(c)
		w += cw
		return true
	})
	b.WriteString("…")
	w++
	if !st.Zero() {
		b.WriteString(Reset)
	}
	return Line{b.String(), w}
}

// TruncLeft keeps the last cells of plain text s that fit in width cells,
// with an ellipsis in front when something was cut.
func TruncLeft(s string, width int) string {
	total := Width(s)
	if total <= width {
		return s
	}
	drop := total - (width - 1)
	i := 0
	EachCluster(s, func(c string, cw int, _ bool) bool {
		if drop <= 0 {
			return false
		}
		drop -= cw
		i += len(c)
		return true
	})
	return "…" + s[i:]
}
