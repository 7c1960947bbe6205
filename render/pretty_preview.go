package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/diffview"
	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/agentfmt/agentfmt/streaming"
)

// A preview of a tool's output is bounded in screen rows at the current
// width, not in lines: the head and the tail of the output, each line
// wrapped, a line that would take more than a few rows cut with a mark
// saying how long it is, and between head and tail a notice of what is
// left out, shown only when it hides more than the one row it costs.

// previewLine is one line of a preview: styled text and what it takes.
type previewLine struct {
	s    string
	rows []termwrap.Line
}

// layoutLine wraps a line in avail cells, cut to at most maxRows rows
// (0: no limit) at a break between words, the last row ending in a mark
// with the line's length in characters.
func (r *prettyRenderer) layoutLine(s string, avail, maxRows int) []termwrap.Line {
	if maxRows <= 0 || len(s) <= avail*maxRows {
		return termwrap.Wrap(s, avail)
	}
	plain := termwrap.Strip(s)
	if cells(plain) <= avail*maxRows {
		return termwrap.Wrap(s, avail)
	}
	// Wrap only a prefix long enough to fill the rows (a line may be
	// megabytes long); the styles of a cut line are dropped.
	n, _ := fitCells(plain, avail*(maxRows+1))
	ls := termwrap.Wrap(plain[:n], avail)
	if len(ls) <= maxRows {
		return termwrap.Wrap(s, avail)
	}
	ls = ls[:maxRows]
	mark := "… (" + strconv.Itoa(utf8.RuneCountInString(plain)) + " chars)"
	mw := cells(mark) + 1
	last := ls[maxRows-1]
	if last.W+mw > avail {
		// Make room at a break between words, else between clusters.
		cut := termwrap.Wrap(last.S, max(avail-mw, 1))[0]
		last = cut
	}
	ls[maxRows-1] = termwrap.Line{S: last.S + " " + r.p.Dim(mark), W: last.W + mw}
	return ls
}

// boundRows picks, from lines (the head and the tail of the output, with
// omitted lines left out between them), the rows of a preview of at most
// budget rows (0: all of them). It returns the head rows, the number of
// lines not shown, and the tail rows.
func boundRows(lines []previewLine, omitted, budget int) (head []termwrap.Line, hidden int, tail []termwrap.Line) {
	total := 0
	for _, l := range lines {
		total += len(l.rows)
	}
	if budget <= 0 || omitted == 0 && total <= budget+1 {
		for _, l := range lines {
			head = append(head, l.rows...)
		}
		return head, 0, nil
	}
	hb := (budget + 1) / 2
	tb := budget - hb
	i := 0
	for ; i < len(lines); i++ {
		n := len(lines[i].rows)
		if len(head)+n > hb {
			if len(head) == 0 {
				head = append(head, lines[i].rows[:hb]...)
				i++
			}
			break
		}
		head = append(head, lines[i].rows...)
	}
	j := len(lines)
	var rev [][]termwrap.Line
	used := 0
	for j > i {
		n := len(lines[j-1].rows)
		if used+n > tb {
			if used == 0 && tb > 0 {
				rev = append(rev, lines[j-1].rows[n-tb:])
				j--
			}
			break
		}
		rev = append(rev, lines[j-1].rows)
		used += n
		j--
	}
	for k := len(rev) - 1; k >= 0; k-- {
		tail = append(tail, rev[k]...)
	}
	return head, omitted + j - i, tail
}

// previewRows lays out a bounded preview below a tool line.
func (r *prettyRenderer) previewRows(dst []row, head []termwrap.Line, hidden int, tail []termwrap.Line, depth int, bar string) []row {
	iw := r.indentW(depth)
	ind := strings.Repeat(" ", iw)
	pre := ind + r.p.Dim(bar)
	pw := iw + cells(bar)
	for _, l := range head {
		dst = append(dst, row{s: pre + l.S, w: pw + l.W})
	}
	if hidden > 0 {
		s := "… " + strconv.Itoa(hidden) + " more line" + eventtext.Plural(hidden)
		s = truncCells(s, max(r.scr.width-pw, 1))
		dst = append(dst, row{s: pre + r.p.Dim(s), w: pw + cells(s)})
	}
	for _, l := range tail {
		dst = append(dst, row{s: pre + l.S, w: pw + l.W})
	}
	return dst
}

// preview appends the head and tail of a tool's output, bounded in rows.
func (r *prettyRenderer) preview(dst []row, output string, depth int) []row {
	if r.cfg.Tools == ToolsNone || output == "" {
		return dst
	}
	budget, perLine := r.cfg.ToolLines, max(1, (r.cfg.ToolLines+1)/2)
	if r.cfg.Tools == ToolsFull {
		budget, perLine = 0, 0
	}
	o := r.outputOptions()
	clean := func(s string) string {
		return expandTabs(sanitize.String(s, o))
	}
	n := 0
	if budget > 0 {
		n = 2 * (budget + 2) // enough lines from each end to fill the budget
	}
	raw, _, omitted := previewText(nil, output, n, clean)
	avail := r.scr.width - r.indentW(depth) - 2
	lines := make([]previewLine, len(raw))
	for i, s := range raw {
		lines[i] = previewLine{s: s, rows: r.layoutLine(s, avail, perLine)}
	}
	head, hidden, tail := boundRows(lines, omitted, budget)
	return r.previewRows(dst, head, hidden, tail, depth, "│ ")
}

// outputOptions sanitise tool output for the terminal: its SGR colour
// drawn (only colour, bold, dim, italic, underline), let through as it
// came with --allow-color, left out without colour; a progress line's
// carriage returns leave what a terminal shows.
func (r *prettyRenderer) outputOptions() sanitize.Options {
	o := sanitize.Options{SGR: sanitize.DrawSGR, Overwrite: true}
	switch {
	case r.cfg.AllowColor:
		o.SGR = sanitize.PassSGR
	case !r.p.Enabled:
		o.SGR = sanitize.DropSGR
	}
	return o
}

// diffPreview shows a tool's file edits as a unified diff: removed lines
// red, added lines green, hunk headers dim, each file named when the call
// changes more than the one its line names; bounded like any preview, in
// twice the rows.
func (r *prettyRenderer) diffPreview(dst []row, edits []streaming.FileEdit, subject string, depth int) []row {
	if r.cfg.Tools == ToolsNone {
		return dst
	}
	dl := diffview.Lines(edits)
	files := 0
	for _, l := range dl {
		if l.Kind == diffview.File {
			files++
		}
	}
	budget, perLine := 2*r.cfg.ToolLines, 2
	if r.cfg.Tools == ToolsFull {
		budget, perLine = 0, 0
	}
	avail := r.scr.width - r.indentW(depth) - 2
	p := r.p
	var lines []previewLine
	for _, l := range dl {
		s := expandTabs(sanitize.String(l.Text, sanitize.Options{}))
		switch l.Kind {
		case diffview.File:
			if files == 1 && (edits[0].Path == subject || edits[0].Op == streaming.EditModify) {
				continue
			}
			s = p.Bold(s)
		case diffview.Hunk, diffview.Note:
			s = p.Dim(s)
		case diffview.Del:
			s = p.Red(s)
		case diffview.Add:
			s = p.Green(s)
		}
		lines = append(lines, previewLine{s: s, rows: r.layoutLine(s, avail, perLine)})
	}
	head, hidden, tail := boundRows(lines, 0, budget)
	return r.previewRows(dst, head, hidden, tail, depth, "│ ")
}
