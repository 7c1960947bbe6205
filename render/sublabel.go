package render

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/palette"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/streaming"
)

// Subagents' lines are told apart by a label, as the streams of
// --follow A B are by their tags: every line of the work a call started
// (a Task's subagent) shows, after the indent of its depth, a short label
// of the call (its description, cut) and a bar:
//
//	▸ Task Explore codebase structure
//	▸ Task Find test files
//	  Explore codebase st… ┃ ▸ Bash find . -name '*.go'
//	  Find test files      ┃ ▸ Glob **/*_test.go
//
// Two subagents running at once interleave their calls; the labels say
// whose each is.

// subLabelMax is the widest a subagent's label is, in cells.
const subLabelMax = 20

// subLabel is the label of the work under one call.
type subLabel struct {
	text  string // sanitised, cut to subLabelMax cells
	w     int
	depth int // the depth of the work: the label goes after its indent
	style func(string) string
}

// newSubLabel is the label of the work under call c, at depth.
func newSubLabel(p palette.Palette, c *streaming.Call, depth int) *subLabel {
	s := c.Subject
	if s == "" {
		s = c.Title
	}
	if s == "" {
		s = c.Name
	}
	s = strings.Join(strings.Fields(sanitize.String(s, sanitize.Options{})), " ")
	if s == "" {
		return nil
	}
	s = truncCells(s, subLabelMax)
	return &subLabel{text: s, w: cells(s), depth: depth, style: tagStyle(p, s)}
}

// margin is what a line of the work at depth starts with: the indent of
// the label's depth, the label padded to w cells, a bar, the rest of the
// indent. Its width is 2*depth + w + 3.
func (l *subLabel) margin(dim func(string) string, depth, w int) string {
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", 2*l.depth))
	b.WriteString(l.style(l.text))
	b.WriteString(strings.Repeat(" ", max(0, w-l.w)))
	b.WriteString(dim(" ┃ "))
	b.WriteString(strings.Repeat(" ", max(0, 2*(depth-l.depth))))
	return b.String()
}

// subOf is the label of the work under the open call parent (a
// subagent's), or nil.
func (r *prettyRenderer) subOf(parent string) *subLabel {
	t := r.item(parent)
	if parent == "" || t == nil {
		return nil
	}
	m := t.more()
	if m.work == nil {
		if m.work = newSubLabel(r.p, t.call, r.depthOf(parent)); m.work == nil {
			return nil
		}
		r.subW = max(r.subW, m.work.w)
	}
	return m.work
}

// subOfItem is the label of the subagent an item is of, or nil.
func subOfItem(it item) *subLabel {
	switch it := it.(type) {
	case *textItem:
		return it.sub
	case *thinkItem:
		return it.sub
	case *toolItem:
		return it.sub
	case *headerItem:
		return it.t.sub
	case *linesItem:
		return it.sub
	case *planItem:
		return it.sub
	}
	return nil
}

// labelled lays out an item with f, labelled when it is a subagent's: it
// is laid out narrower by the label's room, and the label goes into each
// of its rows after the indent of the subagent's depth.
func (r *prettyRenderer) labelled(it item, dst []row, f func([]row) []row) []row {
	l := subOfItem(it)
	room := r.subW + 3
	if l == nil || r.scr.width-room < 30 {
		return f(dst)
	}
	r.scr.width -= room
	n := len(dst)
	dst = f(dst)
	r.scr.width += room
	at := 2 * l.depth
	m := l.margin(r.p.Dim, l.depth, r.subW)
	for i := range dst[n:] {
		rw := &dst[n+i]
		lead := len(rw.s) - len(strings.TrimLeft(rw.s, " "))
		cut := min(at, lead)
		rw.s = strings.Repeat(" ", at-cut) + rw.s[:cut] + m[at:] + rw.s[cut:]
		rw.w += at - cut + room
	}
	return dst
}
