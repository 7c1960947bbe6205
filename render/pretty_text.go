package render

import (
	"bytes"
	"strings"

	"github.com/agentfmt/agentfmt/internal/sanitize"
)

// textItem is a block of assistant text, a user prompt echo, or thinking
// shown in full. Handle only appends to pend; each frame settles pend into
// finished rows (complete lines, and the full rows of a long line that is
// still streaming) and leaves the partial last row live.
type textItem struct {
	depth int
	user  bool // a user prompt echo: "› " before its first line
	think bool // thinking shown in full: dim, "┆ " before each row
	md    bool // style markdown (assistant text with colour on)

	pend    []byte  // raw text not yet settled
	line    []byte  // the current line, sanitised, tabs expanded
	lineW   int     // cells of line (tab stops)
	done    int     // bytes of line already turned into finished rows
	st      mdState // markdown state at done
	rowsOut int     // finished rows of the current line
	lines   int     // lines ended in this block
	fence   bool    // inside a code block
	ready   []row   // finished rows not yet committed

	closed, settled bool
}

func (t *textItem) complete() bool { return t.settled }

func (t *textItem) settle(r *Pretty) {
	if t.settled {
		return
	}
	if len(t.pend) > 0 {
		data := t.pend
		keep := 0
		if !t.closed {
			keep = heldBack(data)
		}
		work := data[:len(data)-keep]
		for len(work) > 0 {
			i := bytes.IndexByte(work, '\n')
			if i < 0 {
				t.appendClean(work)
				break
			}
			t.appendClean(bytes.TrimSuffix(work[:i], []byte{'\r'}))
			t.endLine(r)
			work = work[i+1:]
		}
		t.pend = t.pend[:copy(t.pend, data[len(data)-keep:])]
	}
	if t.closed {
		if len(t.line) > t.done || t.rowsOut > 0 {
			t.endLine(r)
		}
		t.settled = true
		return
	}
	t.ready = t.rows(r, t.ready, false)
	if t.done > 4096 { // keep only the unfinished part of a long line
		t.line = t.line[:copy(t.line, t.line[t.done:])]
		t.done = 0
	}
}

func (t *textItem) appendClean(seg []byte) {
	start := len(t.line)
	t.line = sanitize.Append(t.line, bstr(seg), sanitize.Options{})
	added := t.line[start:]
	if bytes.IndexByte(added, '\t') < 0 {
		t.lineW += cells(bstr(added))
		return
	}
	tmp := string(added)
	t.line, t.lineW = expandTabs(t.line[:start], tmp, t.lineW)
}

// endLine finishes the current line: all its rows become ready.
func (t *textItem) endLine(r *Pretty) {
	t.ready = t.rows(r, t.ready, true)
	if t.st.kind == mdFenceLine {
		t.fence = !t.fence
	}
	t.lines++
	t.line = t.line[:0]
	t.lineW, t.done, t.rowsOut = 0, 0, 0
	t.st = mdState{}
}

func (t *textItem) prefixW() int {
	if t.user || t.think {
		return 2
	}
	return 0
}

// rows appends the finished rows of the current line: all of them when
// final, else all but the last (which may still grow).
func (t *textItem) rows(r *Pretty, dst []row, final bool) []row {
	iw := r.indentW(t.depth)
	avail := r.scr.width - iw - t.prefixW()
	for {
		rest := t.line[t.done:]
		if len(rest) == 0 {
			if final && t.rowsOut == 0 {
				var rw row
				rw, t.st = t.row(r, "", 0, t.st, true)
				dst = append(dst, rw)
				t.rowsOut++
			}
			return dst
		}
		n, w := fitCells(bstr(rest), avail)
		if !final && n == len(rest) {
			return dst
		}
		if n < len(rest) {
			n, w = wordBreak(rest, n, w, avail)
		}
		var rw row
		rw, t.st = t.row(r, bstr(rest[:n]), w, t.st, true)
		dst = append(dst, rw)
		t.done += n
		t.rowsOut++
	}
}

// wordBreak moves a row break that falls inside a word, or just before a
// space, back to just after the last space of the row, when that keeps at
// least a third of the row. The space stays at the end of the row: no
// character is lost or added, and no row starts with a space.
func wordBreak(rest []byte, n, w, avail int) (int, int) {
	if rest[n-1] == ' ' {
		return n, w
	}
	i := bytes.LastIndexByte(rest[:n], ' ')
	if i < 0 {
		return n, w
	}
	cut := w - cells(bstr(rest[i+1:n]))
	if cut < avail/3 {
		return n, w
	}
	return i + 1, cut
}

// row styles one row of the current line, seg of w cells, from state st.
// sure says the line's kind must be decided now (the row is final).
func (t *textItem) row(r *Pretty, seg string, w int, st mdState, sure bool) (row, mdState) {
	var b strings.Builder
	iw := r.indentW(t.depth)
	b.WriteString(strings.Repeat(" ", iw))
	p := r.p
	switch {
	case t.think:
		b.WriteString(p.Dim("┆ "))
		b.WriteString(p.Dim(seg))
	case t.user:
		if t.lines == 0 && t.rowsOut == 0 {
			b.WriteString(p.Blue("› "))
		} else {
			b.WriteString("  ")
		}
		b.WriteString(seg)
	case t.md:
		if st.kind == mdUnsure {
			st.kind = mdLineKind(bstr(t.line), t.fence, sure)
			if st.kind == mdUnsure {
				st.kind = mdCodeLine // shown as is until the line says what it is
			}
		}
		st = styleMD(&b, seg, st, p)
	default:
		b.WriteString(seg)
	}
	return row{b.String(), iw + t.prefixW() + w}, st
}

func (t *textItem) commit(_ *Pretty, dst []row) []row {
	dst = append(dst, t.ready...)
	t.ready = t.ready[:0]
	return dst
}

func (t *textItem) live(r *Pretty, dst []row) []row {
	dst = append(dst, t.ready...)
	if rest := t.line[t.done:]; len(rest) > 0 && !t.settled {
		rw, _ := t.row(r, bstr(rest), cells(bstr(rest)), t.st, false)
		dst = append(dst, rw)
	}
	return dst
}
