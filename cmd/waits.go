package cmd

import (
	"time"

	"github.com/agentfmt/agentfmt/internal/follow"
	"github.com/agentfmt/agentfmt/internal/fswait"
)

// The defaults of Env's waits.
const (
	defaultFollowPoll   = 150 * time.Millisecond
	defaultFollowSettle = time.Second
	defaultFollowSafety = 2 * time.Second
	defaultWatchPoll    = 2 * time.Second
	defaultDrainGrace   = 2 * time.Second
	defaultStdinDelay   = 2 * time.Second
)

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func (e *Env) followPoll() time.Duration   { return orDefault(e.FollowPoll, defaultFollowPoll) }
func (e *Env) followSettle() time.Duration { return orDefault(e.FollowSettle, defaultFollowSettle) }
func (e *Env) followSafety() time.Duration { return orDefault(e.FollowSafety, defaultFollowSafety) }
func (e *Env) watchPoll() time.Duration    { return orDefault(e.WatchPoll, defaultWatchPoll) }
func (e *Env) drainGrace() time.Duration   { return orDefault(e.DrainGrace, defaultDrainGrace) }
func (e *Env) stdinDelay() time.Duration   { return orDefault(e.StdinDelay, defaultStdinDelay) }

// followOptions are how --follow and watch follow a file until stop is
// closed; its run ending ends following (watch changes that).
func (e *Env) followOptions(stop <-chan struct{}) follow.Options {
	return follow.Options{Poll: e.followPoll(), Settle: e.followSettle(), Safety: e.followSafety(), Hub: e.fileHub(),
		Stop: stop, EndsWithRun: true}
}

// fileHub gives the notifications followers and watch wait on (nil: poll).
func (e *Env) fileHub() *fswait.Hub {
	if e.PollFiles {
		return nil
	}
	return fswait.Default()
}
