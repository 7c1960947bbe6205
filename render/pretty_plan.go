package render

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/agentfmt/agentfmt/streaming"
)

// Plans (Codex and ACP plans, Claude's TodoWrite) are shown as checklists:
// "☑ done", "◐ doing", "☐ to do". A plan is printed once each time it
// changes (the same list again prints nothing); while it waits in the
// live region, a newer plan replaces it in place. A plan made by a tool
// call (TodoWrite: the plan event carries the call's ID) is shown under
// that call's line in place of its output.

// planState is the last plan shown and the item that shows it.
type planState struct {
	last string
	item *planItem
}

// planItem is a checklist waiting to reach the scrollback.
type planItem struct {
	depth   int
	sub     *subLabel
	entries []streaming.PlanEntry
}

func (p *planItem) settle(*prettyRenderer) {}
func (p *planItem) complete() bool         { return true }
func (p *planItem) commit(r *prettyRenderer, dst []row) []row {
	if r.plans.item == p {
		r.plans.item = nil // printed: a newer plan is a new item
	}
	return p.live(r, dst)
}

// heldBack reports that item it waits behind a running call, as the
// events tell it (not as frames happen to have committed): it comes after
// the logical head of the sequence.
func (r *prettyRenderer) heldBack(it item) bool {
	r.advanceHead()
	for i := r.lhead; i < len(r.items); i++ {
		if r.items[i] == it {
			return i > r.lhead
		}
	}
	return false
}
func (p *planItem) live(r *prettyRenderer, dst []row) []row {
	n := len(dst)
	dst = r.styledRows(dst, p.depth, r.p.Bold("Plan"), 0)
	dst = r.checklist(dst, p.entries, p.depth)
	keepWhole(dst[n:]) // a plan is shown whole or not at all
	return dst
}

// checklist lays out plan entries, one per line, wrapped under their text.
func (r *prettyRenderer) checklist(dst []row, entries []streaming.PlanEntry, depth int) []row {
	for _, e := range entries {
		mark := eventtext.PlanMark(e.Status)
		text := r.clean(strings.Join(strings.Fields(e.Text), " "))
		switch e.Status {
		case streaming.PlanCompleted:
			mark, text = r.p.Green(mark), r.p.Dim(text)
		case streaming.PlanInProgress:
			mark, text = r.p.Yellow(mark), r.p.Bold(text)
		case streaming.PlanCancelled:
			mark, text = r.p.Dim(mark), r.p.Dim(text)
		}
		dst = r.styledRows(dst, depth, "  "+mark+" "+text, 4)
	}
	return dst
}

// styledRows wraps one styled line at a depth; rows after the first are
// indented by hang more cells.
func (r *prettyRenderer) styledRows(dst []row, depth int, s string, hang int) []row {
	iw := r.indentW(depth)
	ind := strings.Repeat(" ", iw)
	avail := r.scr.width - iw
	if w := cells(s); w <= avail && !strings.HasSuffix(s, " ") {
		return append(dst, row{s: ind + s, w: iw + w}) // fits: as it is
	}
	ls := termwrap.WrapHanging(s, avail, avail-hang)
	if len(ls) == 0 {
		return dst
	}
	// (the rows after the first are hang cells further in, and as much
	// wider)
	dst = lines2rows(dst, ls[:1], ind, ind, "", iw)
	hung := ind + strings.Repeat(" ", hang)
	return lines2rows(dst, ls[1:], hung, hung, "", iw+hang)
}

// plan records a plan event.
func (r *prettyRenderer) plan(ev *streaming.Event, depth int) {
	var key strings.Builder
	for _, e := range ev.Entries {
		key.WriteString(e.Status + "\x00" + e.Text + "\x00")
	}
	entries := make([]streaming.PlanEntry, len(ev.Entries))
	for i, e := range ev.Entries {
		entries[i] = streaming.PlanEntry{Text: strings.Clone(e.Text), Status: e.Status}
	}
	changed := key.String() != r.plans.last
	r.plans.last = key.String()
	// The call that made it (the event's ID), shown with it.
	if t := r.item(ev.ID); ev.ID != "" && t != nil {
		m := t.more()
		m.hasPlan = true
		if changed {
			m.plan = entries
		}
		return
	}
	if !changed {
		return
	}
	if it := r.plans.item; it != nil && it.depth == depth && r.heldBack(it) {
		it.entries = entries // still waiting: update it in place
		return
	}
	it := &planItem{depth: depth, entries: entries, sub: r.subOf(ev.Parent)}
	r.plans.item = it
	r.push(it)
}
