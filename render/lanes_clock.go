package render

import "time"

// kick makes sure the view's frame timer will draw the dirty region
// (real timer only).
func (v *prettyView) kick() {
	if v.cfg.env.Tick != nil || v.finished {
		return
	}
	v.clk.kick()
}

// due is the view's frameTimer.due.
func (v *prettyView) due(now time.Time, resized bool) (time.Time, bool) {
	if v.finished {
		return time.Time{}, false
	}
	if resized {
		v.dirty = true
	}
	next, ok := v.nextDue(now)
	if ok && !next.After(now) {
		v.frame()
		next, ok = v.nextDue(now)
	}
	return next, ok && v.err == nil
}

// nextDue is when the next frame is needed, if any is: the region
// changed, or a stream still going shows a spinner or a clock.
func (v *prettyView) nextDue(now time.Time) (time.Time, bool) {
	var due time.Time
	ok := false
	set := func(t time.Time) {
		if !ok || t.Before(due) {
			due, ok = t, true
		}
	}
	if v.dirty {
		set(v.last.Add(frameInterval))
	}
	shown := v.cfg.env.Now()
	at := func(next time.Time) { set(now.Add(next.Sub(shown))) }
	for _, l := range v.lanes {
		r := l.r
		if l.end != nil || !r.run.active {
			continue
		}
		// The heading's clock counts seconds, and its spinner turns while
		// the stream waits on a tool; a turn that is over shows neither.
		if r.running > 0 {
			last := time.Duration(v.now.UnixNano())
			at(time.Unix(0, int64(last-last%spinnerInterval+spinnerInterval)))
		}
		if l.turn.waiting(v.now, r.running) {
			continue
		}
		if t, ok := l.turn.due(r.running); ok {
			at(t)
		}
		e := v.now.Sub(r.run.start)
		at(r.run.start.Add(e - e%time.Second + time.Second))
	}
	return due, ok
}
