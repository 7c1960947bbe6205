package render

import "time"

// viewClock schedules the frames of a prettyView as clock does for one
// Pretty: a goroutine sleeps on one timer until the next frame is due (33
// ms after a change, the next spinner frame while a stream waits on a
// tool, the next second of a stream's clock) and ends when nothing is due,
// so idle streams cost nothing; a change starts it again.
type viewClock struct {
	running bool
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
}

// kick makes sure the clock will draw the dirty region (real timer only).
func (v *prettyView) kick() {
	if v.cfg.Tick != nil || v.finished {
		return
	}
	if !v.clk.running {
		v.clk.running = true
		v.clk.done = make(chan struct{})
		go v.runClock(v.clk.done)
		return
	}
	select {
	case v.clk.wake <- struct{}{}:
	default:
	}
}

// stopClock ends the goroutine; the returned function waits for it and
// must be called without the view's lock.
func (c *viewClock) stopClock() func() {
	if !c.running {
		return func() {}
	}
	close(c.stop)
	c.running = false
	done := c.done
	return func() { <-done }
}

func (v *prettyView) runClock(done chan struct{}) {
	defer close(done)
	t := time.NewTimer(frameInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-v.clk.wake:
		case <-v.cfg.Resize:
			v.mu.Lock()
			v.dirty = true
			v.mu.Unlock()
		case <-v.clk.stop:
			return
		}
		v.mu.Lock()
		if v.finished {
			v.clk.running = false
			v.mu.Unlock()
			return
		}
		now := time.Now()
		due, ok := v.nextDue(now)
		if ok && !due.After(now) {
			v.frame()
			due, ok = v.nextDue(now)
		}
		if !ok || v.err != nil {
			v.clk.running = false
			v.mu.Unlock()
			return
		}
		t.Reset(due.Sub(now))
		v.mu.Unlock()
	}
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
	shown := v.cfg.Now()
	at := func(next time.Time) { set(now.Add(next.Sub(shown))) }
	for _, l := range v.lanes {
		r := l.r
		if l.end != nil || !r.run.active {
			continue
		}
		// The heading's clock counts seconds, and its spinner turns while
		// the stream waits on a tool.
		if r.running > 0 {
			last := time.Duration(v.now.UnixNano())
			at(time.Unix(0, int64(last-last%spinnerInterval+spinnerInterval)))
		}
		e := v.now.Sub(r.run.start)
		at(r.run.start.Add(e - e%time.Second + time.Second))
	}
	return due, ok
}
