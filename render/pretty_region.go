package render

import (
	"fmt"
	"strings"
	"time"
)

// frame settles what arrived, commits what is complete, lays out the live
// region and writes the difference. final (Finish) commits everything.
func (r *Pretty) frame(final bool) {
	r.now = r.cfg.Now()
	r.clock.last = time.Now()
	r.clock.dirty = false
	r.frames++
	r.pollResize()
	for _, it := range r.items {
		it.settle(r)
	}
	commit := r.commitReady(r.commitBuf[:0], false)
	live := r.liveRows(r.liveBuf[:0])
	limit := r.maxRows()
	for !final && len(live) > limit && r.blocked() {
		// Too tall for the screen while finished items wait: stop waiting
		// for the oldest running call (its header goes to the scrollback,
		// its done line will follow later) and commit what that unblocks.
		commit = r.commitReady(commit, true)
		live = r.liveRows(live[:0])
	}
	commit, live = r.fit(commit), r.fit(live)
	if len(live) > limit {
		live = r.clip(live, limit)
	}
	r.scr.draw(commit, live)
	r.commitBuf, r.liveBuf = commit[:0], live[:0]
	if err := r.scr.flush(); err != nil && r.err == nil {
		r.err = err
	}
}

// fit re-wraps rows wider than the terminal (made before it got narrower,
// or a name longer than a row), so that no row ever soft-wraps and the
// row count stays true.
func (r *Pretty) fit(rows []row) []row {
	for i := 0; i < len(rows); i++ {
		if rows[i].w > r.scr.width {
			split := wrapStyled(nil, rows[i].s, r.scr.width, "", "", 0, false)
			rows = append(rows[:i], append(split, rows[i+1:]...)...)
			i += len(split) - 1
		}
	}
	return rows
}

// maxRows is the tallest the live region may be: a row less than the
// screen, so the cursor can always reach its top.
func (r *Pretty) maxRows() int {
	h := r.height
	if h <= 0 {
		h = 20
	}
	return max(h-1, 1)
}

// blocked reports that finished output (a complete item, or finished rows
// of a text) waits behind a running call at the head of the sequence.
func (r *Pretty) blocked() bool {
	if len(r.items) < 2 {
		return false
	}
	if t, ok := r.items[0].(*toolItem); !ok || t.ended {
		return false
	}
	for _, it := range r.items[1:] {
		if t, ok := it.(*textItem); ok && t.ready() || it.complete() {
			return true
		}
	}
	return false
}

// commitReady moves complete items at the head of the sequence to the
// scrollback, with the finished rows of a text still streaming. force
// opens the running call at the head that blocks the rest.
func (r *Pretty) commitReady(dst []row, force bool) []row {
	for len(r.items) > 0 {
		head := r.items[0]
		if t, ok := head.(*toolItem); ok && !t.ended && (t.wantOpen || force) {
			dst = t.headerRow(r, dst)
			t.opened = true
			force = false
			r.opened = append(r.opened, t)
			r.pop()
			continue
		}
		if head.complete() {
			dst = head.commit(r, dst)
			r.pop()
			continue
		}
		return head.commit(r, dst)
	}
	return dst
}

func (r *Pretty) pop() {
	r.items[0] = nil
	r.items = r.items[1:]
	if len(r.items) == 0 {
		r.items = nil
	}
}

// liveRows lays out the region: calls running above work already in the
// scrollback, then the items not yet committed, then the status line.
func (r *Pretty) liveRows(dst []row) []row {
	for _, t := range r.opened {
		dst = t.runningRows(r, dst)
	}
	for _, it := range r.items {
		dst = it.live(r, dst)
	}
	if r.run.active {
		dst = append(dst, r.statusRow())
	}
	return dst
}

// clip keeps the bottom of a region too tall for the screen, with a line
// saying how much is hidden.
func (r *Pretty) clip(live []row, limit int) []row {
	if limit <= 1 {
		return live[len(live)-limit:]
	}
	cut := len(live) - limit + 1
	s := truncCells(fmt.Sprintf("… %d more line%s", cut, plural(cut)), r.scr.width)
	return append([]row{{r.p.Dim(s), cells(s)}}, live[cut:]...)
}

// statusRow is the run so far: elapsed time, tokens, cost, and the latest
// status (a retry, a rate limit, compaction).
func (r *Pretty) statusRow() row {
	facts := []string{elapsed(r.now.Sub(r.run.start))}
	if u := r.run.usage; u != nil {
		if t := u.Total(); t > 0 {
			facts = append(facts, Tokens(t)+" tokens")
		}
		if u.HasCost {
			facts = append(facts, Cost(u.CostUSD))
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
	return row{s, w}
}
