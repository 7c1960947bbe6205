package cmd

import "time"

// drainClock bounds the waiting for the agent's output after its exit
// (Env.DrainGrace): what the agent wrote before it exited is read whatever
// the time, but a process it left running (a wrapper's 'server &', an MCP
// server, 'nohup … &') may hold its stdout or stderr open for ever, and
// agentfmt must not wait for that. It counts only the time spent waiting
// with nothing to read: output already in the pipe is read, and rendered,
// however long that takes.
type drainClock struct {
	exited <-chan struct{} // closed when the agent has exited
	after  bool            // the agent has exited
	left   time.Duration   // waiting still allowed
	cut    bool            // the allowance ran out with the output still open
	timer  *time.Timer
	since  time.Time
}

func newDrainClock(exited <-chan struct{}, grace time.Duration) *drainClock {
	return &drainClock{exited: exited, left: grace}
}

// spent reports that no more waiting is allowed: the output is to be
// taken as ended.
func (c *drainClock) spent() bool {
	if c == nil || !c.after {
		return false
	}
	if c.left <= 0 {
		c.cut = true
		return true
	}
	return false
}

// arm returns what to wait on besides the output: before the exit, the
// exit itself; after it, the end of the allowance. disarm must follow.
func (c *drainClock) arm() (exit <-chan struct{}, expire <-chan time.Time) {
	if c == nil {
		return nil, nil
	}
	if !c.after {
		return c.exited, nil
	}
	if c.timer == nil {
		c.timer = time.NewTimer(c.left)
	} else {
		c.timer.Reset(c.left)
	}
	c.since = time.Now()
	return nil, c.timer.C
}

// disarm counts the time waited since arm.
func (c *drainClock) disarm() {
	if c == nil || !c.after || c.since.IsZero() {
		return
	}
	c.timer.Stop()
	c.left -= time.Since(c.since)
	c.since = time.Time{}
}

// exit records the agent's exit (arm's exit channel was closed).
func (c *drainClock) exit() { c.after = true }

// expire records that the allowance ran out (arm's expire channel fired).
func (c *drainClock) expire() {
	c.since = time.Time{}
	c.left = 0
	c.cut = true
}

// next returns the next line of side, waiting no longer than the clock
// allows; ok is false at side's end or when the allowance has run out.
func (c *drainClock) next(side <-chan string) (line string, ok bool) {
	for {
		if c.spent() {
			return "", false
		}
		exit, expire := c.arm()
		select {
		case l, ok := <-side:
			c.disarm()
			return l, ok
		case <-exit:
			c.exit()
		case <-expire:
			c.expire()
			return "", false
		}
	}
}
