package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/internal/eventtext"
)

// frame settles what arrived, commits what is complete, lays out the live
// region and writes the difference. final (Finish) commits everything.
func (r *prettyRenderer) frame(final bool) {
	if r.host != nil {
		r.host.frame() // one lane of several: the view draws them all
		return
	}
	commit, live := r.layout()
	live = r.clip(live, r.scr.committed+len(commit))
	r.scr.draw(commit, live)
	r.commitBuf, r.liveBuf = commit[:0], live[:0]
	if err := r.scr.flush(); err != nil && r.err == nil {
		r.err = err
	}
}

// layout settles what arrived and returns the rows that go to the
// scrollback now and the live region's rows, in r.commitBuf and r.liveBuf.
func (r *prettyRenderer) layout() (commit, live []row) {
	r.now = r.cfg.env.Now()
	r.clock.last = time.Now()
	r.clock.dirty = false
	r.since = 0
	r.frames++
	r.pollResize()
	r.settle()
	commit = r.commitReady(r.commitBuf[:0])
	r.pollResize() // again, as late as can be: the frame is for this width
	live = r.liveRows(r.liveBuf[:0])
	if r.cfg.Static {
		live = live[:0] // (what is finished only: no cursor goes back over it)
	}
	return r.fit(commit), r.fit(live)
}

// fit re-wraps rows wider than the terminal (made before it got narrower,
// or a name longer than a row), so that no row ever soft-wraps and the
// row count stays true.
func (r *prettyRenderer) fit(rows []row) []row {
	for i := 0; i < len(rows); i++ {
		if rows[i].w > r.scr.width {
			split := wrapStyled(nil, rows[i].s, r.scr.width, "", "", 0, false)
			for k := range split {
				split[k].keep = rows[i].keep
			}
			rows = append(rows[:i], append(split, rows[i+1:]...)...)
			i += len(split) - 1
		}
	}
	return rows
}

// maxRows is the tallest the live region may be: a row less than the
// screen, so the cursor can always reach its top.
func (r *prettyRenderer) maxRows() int {
	h := r.height
	if h <= 0 {
		h = 20
	}
	return max(h-1, 1)
}

// shrinkRoom is how many times narrower the terminal may get, in one
// resize, with the live region still on the screen afterwards: the
// terminal re-wraps each row of the region into as many as this, and the
// cursor must still reach the region's first row to erase it (see
// screen.resize). A row that a reflow pushes into the scrollback can't be
// erased there, and would be shown twice.
const shrinkRoom = 3

// reflowed is how many more rows the terminal gives a row of the region
// once it re-wraps it for a width shrinkRoom times narrower: none for a
// row that fits the narrower width (most running calls, plan entries and
// the status line), none on a terminal that cuts rows instead
// (Config.NoReflow).
func (r *prettyRenderer) reflowed(rw row) int {
	if r.scr.noReflow {
		return 0
	}
	nw := max(r.scr.width/shrinkRoom, 1)
	return max((rw.w+nw-1)/nw-1, 0)
}

// liveFull is what an open block may hold before it is shown in pieces
// (textItem.grow): a third of what the screen holds, so that the rows of
// a text re-wrapped for a terminal shrinkRoom times narrower still fit;
// it depends on the screen alone, so that where a block is cut does not
// depend on how far the run has got.
func (r *prettyRenderer) liveFull() int {
	return max(r.maxRows()/shrinkRoom, min(r.maxRows(), 6))
}

// crowd stops waiting for running calls at the head of the sequence
// when what waits behind them would take more rows than the screen has
// and some of it is finished: each such call's header goes to the
// scrollback, its done line will follow later, and what waited behind it
// can follow. It is decided from the events alone (text is measured by
// what arrived, not by what a frame has laid out), never by when frames
// are drawn, so a replay and a live feed of one log end alike. It looks
// at no more items than the screen has rows.
func (r *prettyRenderer) crowd() {
	r.advanceHead()
	h := r.lhead
	if h >= len(r.items)-1 {
		return
	}
	if t, ok := r.items[h].(*toolItem); !ok || t.ended {
		return
	}
	limit := r.maxRows()
	rows, ready := 0, false
	for _, it := range r.items[h+1 : min(len(r.items), h+limit+2)] {
		switch it := it.(type) {
		case *textItem:
			rows += it.nl + it.recv/max(r.scr.width, 1) + 1
			ready = ready || it.nl > 0 || it.closed
		case *toolItem:
			rows++
			if it.ended {
				rows += r.cfg.ToolLines
				ready = true
			}
		case *headerItem:
			rows++
		default:
			rows++
			ready = true
		}
		if rows > limit && ready {
			break
		}
	}
	if rows <= limit || !ready {
		return
	}
	for i := h; i < len(r.items); i++ {
		t, ok := r.items[i].(*toolItem)
		if !ok || t.ended {
			return
		}
		r.split(i, t)
	}
}

// split puts a header in the place of running call t at index i of the
// sequence: its running line while it waits, its header once committed;
// its done line will be pushed at the end when it ends.
func (r *prettyRenderer) split(i int, t *toolItem) {
	r.items[i] = &headerItem{t: t}
	t.split = true
}

// advanceHead moves the logical head to the first item that holds the
// rest back, whether or not the items before it have reached the
// scrollback yet.
func (r *prettyRenderer) advanceHead() {
	for r.lhead < len(r.items) && passed(r.items[r.lhead]) {
		r.lhead++
	}
}

// passed reports that an item holds nothing after it back: it is final,
// or a running call whose header will go to the scrollback.
func passed(it item) bool {
	switch it := it.(type) {
	case *textItem:
		return it.closed
	case *thinkItem:
		return it.closed
	case *toolItem:
		return it.ended
	}
	return true
}

// commitReady moves complete items at the head of the sequence to the
// scrollback, with the finished rows of a text still streaming.
func (r *prettyRenderer) commitReady(dst []row) []row {
	for len(r.items) > 0 {
		head := r.items[0]
		if head.complete() {
			dst = r.labelled(head, dst, func(dst []row) []row { return head.commit(r, dst) })
			r.pop()
			continue
		}
		return r.labelled(head, dst, func(dst []row) []row { return head.commit(r, dst) })
	}
	return dst
}

func (r *prettyRenderer) pop() {
	if r.lhead > 0 {
		r.lhead--
	}
	r.items[0] = nil
	r.items = r.items[1:]
	if len(r.items) == 0 {
		r.items = nil
	}
}

// settle folds the text that arrived into the text items still taking it.
func (r *prettyRenderer) settle() {
	keep := r.unsettled[:0]
	for _, t := range r.unsettled {
		t.settle(r)
		if !t.settled {
			keep = append(keep, t)
		}
	}
	clear(r.unsettled[len(keep):])
	r.unsettled = keep
}

// liveRows lays out the region: calls running above work already in the
// scrollback, then the items not yet committed, then the status line.
//
// It is drawn from a bounded set: items are laid out from the last one
// up until the screen is full, and what does not fit is counted, not
// laid out ("… 12 more running"). A frame costs the same with 80,000
// calls running as with 20.
func (r *prettyRenderer) liveRows(dst []row) []row {
	limit := r.maxRows()
	// Calls that ended left r.opened: drop them (their done line is in
	// the sequence).
	if n := len(r.opened); n > 0 {
		keep := r.opened[:0]
		for _, t := range r.opened {
			if !t.ended {
				keep = append(keep, t)
			}
		}
		clear(r.opened[len(keep):n])
		r.opened = keep
	}
	var parts [][]row // from the bottom up
	n := 0
	if r.run.active && r.host == nil { // (a lane's heading says it)
		parts = append(parts, []row{r.statusRow()})
		n++
	}
	shownRunning := 0
	i := len(r.items)
	for i > 0 && n <= limit {
		i--
		it := r.items[i]
		rows := r.labelled(it, nil, func(dst []row) []row { return it.live(r, dst) })
		parts = append(parts, rows)
		n += len(rows)
		if isRunning(r.items[i]) {
			shownRunning++
		}
	}
	j := len(r.opened)
	for i == 0 && j > 0 && n <= limit {
		j--
		t := r.opened[j]
		rows := r.labelled(t, nil, func(dst []row) []row { return t.runningRows(r, dst) })
		parts = append(parts, rows)
		n += len(rows)
		shownRunning++
	}
	if more := r.running - shownRunning; (i > 0 || j > 0) && more > 0 {
		s := truncCells("… "+eventtext.Tokens(int64(more))+" more running", r.scr.width)
		dst = append(dst, row{s: r.p.Dim(s), w: cells(s)})
	}
	for k := len(parts) - 1; k >= 0; k-- {
		dst = append(dst, parts[k]...)
	}
	return dst
}

// isRunning reports whether an item is a call still running.
func isRunning(it item) bool {
	switch t := it.(type) {
	case *toolItem:
		return !t.ended
	case *headerItem:
		return !t.t.ended
	}
	return false
}

// clip cuts a region too tall for the screen: it keeps the rows marked
// to keep (row.keep: every call's running line, a plan whole) and as
// many of the bottom rows as fit, and says in a row at the top how many
// others it cut. above is how many rows the run
// has put in the scrollback, this frame's included.
//
// A region is too tall when a terminal made shrinkRoom times narrower
// would push its first row off the screen, where no erase reaches it.
// tmux, like most terminals that re-wrap, keeps the rows below the
// region where they are and the screen's last rows on the screen: what
// the region's rows gain in the re-wrap (reflowed) pushes the rows above
// them up. The region's first row is at least as far down as the rows
// the run has written (the run may have started at the top of the
// screen) and as the screen's height less the region. So the region may
// gain no more rows than above, nor than the screen has rows beside it.
// Counted in the region's real widths, not as if every row were full: a
// running call or a plan entry seldom gains a row, so they are on the
// screen from the first rows of a run. The region keeps its last two rows
// (the text as it comes and the status line) and the rows to keep
// whatever the risk: a terminal made three times narrower in the first
// seconds of a run that began at the top of the screen may leave a copy
// of some in the scrollback, where a region without them would hide what
// runs from everyone.
func (r *prettyRenderer) clip(live []row, above int) []row {
	limit := r.maxRows()
	fits := func(n, g int) bool { return g <= above && n+g <= limit }
	// The bottom rows from from on, and the rows to keep above them,
	// with a row for the count when rows are cut.
	size := func(from int) (n, g int) {
		cut := false
		for i, rw := range live {
			if i >= from || rw.keep {
				n, g = n+1, g+r.reflowed(rw)
			} else {
				cut = true
			}
		}
		if cut {
			n++
		}
		return n, g
	}
	if n, g := size(0); fits(n, g) {
		return live
	}
	from := len(live) - min(len(live), 2)
	for from > 0 {
		if n, g := size(from - 1); !fits(n, g) {
			break
		}
		from--
	}
	// The rows cut go in steps of half the region: a region that shows
	// the tail of a growing text moves up by half its height at a time,
	// not by a row each time a row is added, which would write the whole
	// region again for every row of text.
	if step := max((len(live)-from)/2, 1); from%step != 0 {
		from = min(from+step-from%step, len(live)-min(len(live), 2))
	}
	cut := 0
	for _, rw := range live[:from] {
		if !rw.keep {
			cut++
		}
	}
	var out []row
	if cut > 0 && len(live)-cut >= 3 {
		s := truncCells(fmt.Sprintf("… %d more line%s", cut, eventtext.Plural(cut)), r.scr.width)
		out = append(out, row{s: r.p.Dim(s), w: cells(s)})
	}
	for i, rw := range live {
		if i >= from || rw.keep {
			out = append(out, rw)
		}
	}
	// So many calls run (or a plan is so long) that the rows to keep
	// alone overflow the screen: the bottom ones.
	for n, g := 0, 0; len(out) > 2; n, g = 0, 0 {
		for _, rw := range out {
			n, g = n+1, g+r.reflowed(rw)
		}
		if n+g <= limit {
			break
		}
		out = out[1:]
	}
	return out
}

// statusRow is the run so far: elapsed time, tokens, cost, and the latest
// status (a retry, a rate limit, compaction).
func (r *prettyRenderer) statusRow() row {
	facts := []string{elapsed(r.now.Sub(r.run.start))}
	if r.turn.waiting(r.now, r.running) {
		// The turn is over (an agent's session file has no result): the
		// agent waits for its user, and no clock counts.
		facts[0] = "waiting for a prompt"
	}
	if u := r.run.usage; u != nil {
		if t := u.Total(); t > 0 {
			facts = append(facts, eventtext.Tokens(t)+" tokens")
		}
		if eventtext.KnownCost(u) {
			facts = append(facts, eventtext.Cost(u.CostUSD))
		}
	}
	s := r.p.Dim("● " + strings.Join(facts, " · "))
	w := 2 + cells(strings.Join(facts, " · "))
	if st := r.run.status; st != "" {
		room := r.scr.width - w - 3
		if room >= 8 {
			st = truncCells(st, room)
			s += " " + r.p.Yellow("⚠ "+st)
			w += 3 + cells(st)
		}
	}
	return row{s: s, w: w}
}
