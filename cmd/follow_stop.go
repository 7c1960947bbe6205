package cmd

import (
	"github.com/agentfmt/agentfmt/internal/feed"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// errInterrupted is returned by the input when a signal arrives.
type errInterrupted = feed.Interrupted

// stopped says what a signal ended, in the summary of an interrupted run
// (sum.Interrupted): nothing, when no run began (no line was read); only
// the reading, when the input is a file followed, which its agent writes
// on its own (then stopped: its run is left as it was, and the command
// says that following stopped).
func (p *pipeline) stopped(sum *render.Summary) (stopped bool) {
	switch {
	case !sum.Interrupted:
	case p.lines == 0:
		sum.Interrupted, sum.Stopped = false, true
	case p.follow != nil && sum.Outcome == streaming.Incomplete:
		sum.Interrupted, sum.Stopped = false, true
		return true
	}
	return false
}

// sayStopped says on stderr that following stopped and nothing else: the
// session is left as it was, whether its agent is working or waits for a
// prompt.
func (p *pipeline) sayStopped(stopped bool) {
	if stopped {
		warnf(p.stderr, "following stopped; the session is left as it was")
	}
}
