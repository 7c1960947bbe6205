package filter

import "github.com/agentfmt/agentfmt/streaming"

// Chatter leaves out the agent's chatter for a person reading a run
// (pretty, plain, markdown, html without --verbose): events of a type no
// parser knows, and status lines of level verbose — bookkeeping the
// parsers mark as such: API request lines, rate limits within limits,
// task started/progress/completed, hooks that succeeded, heartbeats of a
// running tool. Warnings and errors always pass (a retry, a rate limit
// hit, a failed task or hook), and so does every other event. json keeps
// everything: it is not filtered.
type Chatter struct{ next streaming.Handler }

// NewChatter returns a Chatter filter in front of next.
func NewChatter(next streaming.Handler) *Chatter { return &Chatter{next: next} }

// IsChatter reports whether ev is chatter.
func IsChatter(ev *streaming.Event) bool {
	switch ev.Kind {
	case streaming.KindUnknown:
		return true
	case streaming.KindStatus:
		return ev.Level == streaming.LevelVerbose
	}
	return false
}

// Handle passes ev on unless it is chatter.
func (c *Chatter) Handle(ev *streaming.Event) error {
	if IsChatter(ev) {
		return nil
	}
	return c.next.Handle(ev)
}
