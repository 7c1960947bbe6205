package agentproc

import "time"

// Clock bounds the waiting for the agent's output after its exit
// (Config.Grace): what the agent wrote before it exited is read whatever
// the time, but a process it left running (a wrapper's 'server &', an MCP
// server, 'nohup … &') may hold its stdout or stderr open for ever, and
// agentfmt must not wait for that. It counts only the time spent waiting
// with nothing to read: output already in the pipe is read, and rendered,
// however long that takes.
type Clock struct {
	exited <-chan struct{} // closed when the agent has exited
	after  bool            // the agent has exited
	left   time.Duration   // waiting still allowed
	cut    bool            // the allowance ran out with the output still open
	timer  *time.Timer
	since  time.Time
}

// NewClock returns the clock of an agent whose exit closes exited.
func NewClock(exited <-chan struct{}, grace time.Duration) *Clock {
	return &Clock{exited: exited, left: grace}
}

// Spent reports that no more waiting is allowed: the output is to be
// taken as ended.
func (c *Clock) Spent() bool {
	if c == nil || !c.after {
		return false
	}
	if c.left <= 0 {
		c.cut = true
		return true
	}
	return false
}

// Arm returns what to wait on besides the output: before the exit, the
// Exit itself; after it, the end of the allowance. Disarm must follow.
func (c *Clock) Arm() (exit <-chan struct{}, expire <-chan time.Time) {
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

// Disarm counts the time waited since Arm.
func (c *Clock) Disarm() {
	if c == nil || !c.after || c.since.IsZero() {
		return
	}
	c.timer.Stop()
	c.left -= time.Since(c.since)
	c.since = time.Time{}
}

// Exit records the agent's exit (Arm's exit channel was closed).
func (c *Clock) Exit() { c.after = true }

// Expire records that the allowance ran out (Arm's expire channel fired).
func (c *Clock) Expire() {
	c.since = time.Time{}
	c.left = 0
	c.cut = true
}

// Next returns the next line of side, waiting no longer than the clock
// allows; ok is false at side's end or when the allowance has run out.
func (c *Clock) Next(side <-chan string) (line string, ok bool) {
	for {
		if c.Spent() {
			return "", false
		}
		exit, expire := c.Arm()
		select {
		case l, ok := <-side:
			c.Disarm()
			return l, ok
		case <-exit:
			c.Exit()
		case <-expire:
			c.Expire()
			return "", false
		}
	}
}

// Cut reports that the allowance ran out with the output still open.
func (c *Clock) Cut() bool { return c.cut }
