package render

import (
	"os"
	"sync"
	"time"
)

const (
	// frameInterval is the shortest time between two frames (~30/s).
	frameInterval = 33 * time.Millisecond
	// spinnerInterval is the time between two spinner frames (~8/s).
	spinnerInterval = 125 * time.Millisecond
)

// frameTimer draws frames when they are due, without renderenv.Env.Tick: a
// goroutine sleeps on one timer until the next frame is due (33 ms after
// a change, the next spinner frame while a tool runs, the next second of
// a clock shown) and ends when nothing is due, so an idle renderer costs
// nothing; kick starts it again. One Pretty has one, and so has a view of
// several streams.
type frameTimer struct {
	running bool // the goroutine is alive
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	mu      sync.Locker // the renderer's lock, held while due runs
	resize  <-chan os.Signal
	// due draws the frame that is due at now, if one is (resized: a
	// resize arrived since), and says when the next one is: none (false)
	// when nothing is due, or the renderer finished or failed.
	due func(now time.Time, resized bool) (time.Time, bool)
}

func (c *frameTimer) init(mu sync.Locker, resize <-chan os.Signal, due func(time.Time, bool) (time.Time, bool)) {
	c.wake = make(chan struct{}, 1)
	c.stop = make(chan struct{})
	c.mu, c.resize, c.due = mu, resize, due
}

// kick makes sure the timer runs (the lock held).
func (c *frameTimer) kick() {
	if !c.running {
		c.running = true
		c.done = make(chan struct{})
		go c.run(c.done)
		return
	}
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// stopClock ends the goroutine; the returned function waits for it and
// must be called without the lock held.
func (c *frameTimer) stopClock() func() {
	if !c.running {
		return func() {}
	}
	close(c.stop)
	c.running = false
	done := c.done
	return func() { <-done }
}

func (c *frameTimer) run(done chan struct{}) {
	defer close(done)
	t := time.NewTimer(frameInterval)
	defer t.Stop()
	for {
		resized := false
		select {
		case <-t.C:
		case <-c.wake:
		case <-c.resize:
			resized = true
		case <-c.stop:
			return
		}
		c.mu.Lock()
		now := time.Now()
		next, ok := c.due(now, resized)
		if !ok {
			c.running = false
			c.mu.Unlock()
			return
		}
		t.Reset(next.Sub(now))
		c.mu.Unlock()
	}
}

// clock is a Pretty's frame timer and what it knows of the region.
type clock struct {
	frameTimer
	dirty   bool      // the region changed since the last frame
	last    time.Time // wall time of the last frame
	resized bool      // a resize arrived; re-read the size at the next frame
}

// kick makes sure the clock will draw the dirty region (real timer only).
func (r *prettyRenderer) kick() {
	if r.cfg.env.Tick != nil || r.finished {
		return
	}
	r.clock.kick()
}

// due is the clock's frameTimer.due.
func (r *prettyRenderer) due(now time.Time, resized bool) (time.Time, bool) {
	if r.finished {
		return time.Time{}, false
	}
	if resized {
		r.clock.resized = true
		r.clock.dirty = true
	}
	next, ok := r.nextDue(now)
	if ok && !next.After(now) {
		r.frame(false)
		next, ok = r.nextDue(now)
	}
	return next, ok && r.err == nil
}

// nextDue is when the next frame is needed, if any is.
func (r *prettyRenderer) nextDue(now time.Time) (time.Time, bool) {
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
	// Displayed times come from renderenv.Env.Now; r.now is the one of the last
	// frame. A frame is due when the spinner or a seconds counter shown
	// then has moved on since.
	shown := r.cfg.env.Now()
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

// pollTicks draws one frame if renderenv.Env.Tick has delivered (tests).
func (r *prettyRenderer) pollTicks() {
	got := false
	for {
		select {
		case <-r.cfg.env.Tick:
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
func (r *prettyRenderer) spinner() string {
	n := r.now.UnixNano() / int64(spinnerInterval)
	return spinnerFrames[int(n%int64(len(spinnerFrames)))]
}

// pollResize re-reads the terminal size, unless --width fixed it
// (TermSize is nil then). It does so on every frame, not only after
// SIGWINCH: the signal comes a moment after the terminal changed, and a
// frame drawn for the old width in that moment moves the cursor by rows
// that the terminal no longer has, which leaves words twice on the screen
// or erases some. Reading the size costs one system call per frame.
func (r *prettyRenderer) pollResize() {
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
