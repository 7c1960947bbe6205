package render

import (
	"time"
)

const (
	// frameInterval is the shortest time between two frames (~30/s).
	frameInterval = 33 * time.Millisecond
	// spinnerInterval is the time between two spinner frames (~8/s).
	spinnerInterval = 125 * time.Millisecond
)

// clock schedules frames. Without Config.Tick a goroutine sleeps on one
// timer until the next frame is due: 33 ms after the region became dirty,
// the next spinner frame while a tool runs, the next second of a clock
// shown in the region. With nothing live and nothing dirty it ends, so an
// idle stream costs nothing; Handle starts it again.
type clock struct {
	dirty   bool      // the region changed since the last frame
	last    time.Time // wall time of the last frame
	running bool      // the goroutine is alive
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	resized bool // a resize arrived; re-read the size at the next frame
}

func (c *clock) init() {
	c.wake = make(chan struct{}, 1)
	c.stop = make(chan struct{})
}

// kick makes sure the clock will draw the dirty region (real timer only).
func (r *Pretty) kick() {
	if r.cfg.Tick != nil || r.finished {
		return
	}
	if !r.clock.running {
		r.clock.running = true
		r.clock.done = make(chan struct{})
		go r.runClock(r.clock.done)
		return
	}
	select {
	case r.clock.wake <- struct{}{}:
	default:
	}
}

// stopClock ends the goroutine; the returned function waits for it and
// must be called without the mutex held.
func (c *clock) stopClock() func() {
	if !c.running {
		return func() {}
	}
	close(c.stop)
	c.running = false
	done := c.done
	return func() { <-done }
}

func (r *Pretty) runClock(done chan struct{}) {
	defer close(done)
	t := time.NewTimer(frameInterval)
	defer t.Stop()
	for {
		resized := false
		select {
		case <-t.C:
		case <-r.clock.wake:
		case <-r.cfg.Resize:
			resized = true
		case <-r.clock.stop:
			return
		}
		r.mu.Lock()
		if r.finished {
			r.clock.running = false
			r.mu.Unlock()
			return
		}
		if resized {
			r.clock.resized = true
			r.clock.dirty = true
		}
		now := time.Now()
		due, ok := r.nextDue(now)
		if ok && !due.After(now) {
			r.frame(false)
			due, ok = r.nextDue(now)
		}
		if !ok || r.err != nil {
			r.clock.running = false
			r.mu.Unlock()
			return
		}
		t.Reset(due.Sub(now))
		r.mu.Unlock()
	}
}

// nextDue is when the next frame is needed, if any is.
func (r *Pretty) nextDue(now time.Time) (time.Time, bool) {
	var due time.Time
	ok := false
	set := func(t time.Time) {
		if !ok || t.Before(due) {
			due, ok = t, true
		}
	}
	if r.clock.dirty {
		set(r.clock.last.Add(frameInterval))
	}
	// Displayed times come from Config.Now; r.now is the one of the last
	// frame. A frame is due when the spinner or a seconds counter shown
	// then has moved on since.
	shown := r.cfg.Now()
	at := func(next time.Time) { set(now.Add(next.Sub(shown))) }
	if r.running > 0 {
		last := time.Duration(r.now.UnixNano())
		at(time.Unix(0, int64(last-last%spinnerInterval+spinnerInterval)))
	}
	if r.run.active {
		e := r.now.Sub(r.run.start)
		at(r.run.start.Add(e - e%time.Second + time.Second))
	}
	return due, ok
}

// pollTicks draws one frame if Config.Tick has delivered (tests).
func (r *Pretty) pollTicks() {
	got := false
	for {
		select {
		case <-r.cfg.Tick:
			got = true
			continue
		default:
		}
		break
	}
	if got {
		r.frame(false)
	}
}

// spinner is the spinner frame for the time being drawn.
func (r *Pretty) spinner() string {
	n := r.now.UnixNano() / int64(spinnerInterval)
	return spinnerFrames[int(n%int64(len(spinnerFrames)))]
}

// pollResize re-reads the terminal size, unless --width fixed it
// (TermSize is nil then). It does so on every frame, not only after
// SIGWINCH: the signal comes a moment after the terminal changed, and a
// frame drawn for the old width in that moment moves the cursor by rows
// that the terminal no longer has, which leaves words twice on the screen
// or erases some. Reading the size costs one system call per frame.
func (r *Pretty) pollResize() {
	for r.cfg.Resize != nil {
		select {
		case <-r.cfg.Resize:
			continue
		default:
		}
		break
	}
	r.clock.resized = false
	if r.cfg.TermSize == nil {
		return
	}
	w, h, ok := r.cfg.TermSize()
	if !ok || w <= 0 {
		return
	}
	r.height = h
	r.scr.resize(w)
}
