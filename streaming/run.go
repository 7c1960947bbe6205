package streaming

import (
	"iter"
	"strings"
	"time"
)

// Run is what the session knows of the run it reads: who ran it, its
// figures so far and, once it came, its result. Every footer, summary and
// page reads it (State.Run) instead of counting events of its own, so
// they all say the same. A run begins at a session.start, or with the
// first event of another run after a result (see Session): the Run then
// starts over, but for Agent, Model and SessionID, which a run without a
// session.start of its own keeps from the one before. During the Handle
// of an event the Run already counts it: the tool.end of a call counts
// that call, a result's Handle finds Done set.
//
// Its fields are the session's: a handler reads them and keeps none of
// its strings past the Handle without copying them.
type Run struct {
	// Runs counts the session.start events so far: the number of a run
	// that began with one.
	Runs int
	// Agent is the agent of the run's first event that names one; Model
	// and SessionID are its session.start's.
	Agent, Model, SessionID string
	// Usage is the usage the result gives, or else the last usage
	// reported in the run; nil for none.
	Usage *Usage
	// ContextWindow is the model's context window in tokens, when a
	// usage event gave it (0: unknown).
	ContextWindow int64
	// ToolCalls counts the tool calls that ended in the run (ended by
	// the session as incomplete included); Failed those of them that
	// failed or were declined.
	ToolCalls, Failed int
	// First and Last are the first and last event times of the run, when
	// the agent gives times.
	First, Last time.Time

	// Done says the run's result came; OK, Reason, DurationMS, Turns,
	// Origin and Models are then the result's.
	Done       bool
	OK         bool
	Reason     string
	DurationMS int64
	Turns      int
	Origin     string
	Models     []string

	usage, resultUsage Usage       // what Usage points to
	tools              []toolCount // calls by tool name, in the order of first calls
	curMsg             *message    // the message of the current block (Block), nil for none
	cur                *block
}

// Block is the run's current block: the text or thinking block that
// showed text last and is not final yet (no block.stop for it), by its
// message id, kind (KindTextDelta or KindThinkingDelta) and index; ok is
// false when there is none. During the Handle of a block's text it is
// that block; during the Handle of its block.stop it is no longer.
func (r *Run) Block() (message string, kind Kind, index int, ok bool) {
	if r.cur == nil {
		return "", "", 0, false
	}
	return r.curMsg.id, r.cur.key.kind, r.cur.key.index, true
}

// toolCount is the number of calls of one tool.
type toolCount struct {
	name  string
	calls int
}

// Duration is the run's duration in milliseconds: the result's, or
// else, while no result came, the span of its event times (0: unknown).
func (r *Run) Duration() int64 {
	if r.Done || r.First.IsZero() || !r.Last.After(r.First) {
		return r.DurationMS
	}
	return r.Last.Sub(r.First).Milliseconds()
}

// Tools yields each tool the run called and its number of calls, in the
// order of their first calls.
func (r *Run) Tools() iter.Seq2[string, int] {
	return func(yield func(string, int) bool) {
		for _, t := range r.tools {
			if !yield(t.name, t.calls) {
				return
			}
		}
	}
}

// begin starts the figures of a run over. A run that began with a
// session.start takes its agent, model and session id from it.
func (r *Run) begin(start *Event) {
	*r = Run{Runs: r.Runs, Agent: r.Agent, Model: r.Model, SessionID: r.SessionID, tools: r.tools[:0],
		curMsg: r.curMsg, cur: r.cur} // (a block of the last run stays current until it is final)
	if start != nil {
		r.Runs++
		r.Agent, r.Model, r.SessionID = kept(r.Agent, start.Agent), kept(r.Model, start.Model), kept(r.SessionID, start.SessionID)
	}
}

// kept is s, copied unless it is old.
func kept(old, s string) string {
	if s == old {
		return old
	}
	return strings.Clone(s)
}

// note takes what every event says of the run: its agent and time, and
// a usage event's usage.
func (r *Run) note(ev *Event) {
	if !ev.Time.IsZero() {
		if r.First.IsZero() {
			r.First = ev.Time
		}
		r.Last = ev.Time
	}
	if r.Agent == "" && ev.Agent != "" {
		r.Agent = strings.Clone(ev.Agent)
	}
	if ev.Kind == KindUsage && ev.Usage != nil {
		r.usage = *ev.Usage
		if r.Usage != &r.resultUsage {
			r.Usage = &r.usage
		}
		if ev.Usage.ContextWindow > 0 {
			r.ContextWindow = ev.Usage.ContextWindow
		}
	}
}

// toolEnded counts the call ev ends.
func (r *Run) toolEnded(ev *Event) {
	r.ToolCalls++
	if ev.Status == ToolError || ev.Status == ToolDeclined {
		r.Failed++
	}
	for i := range r.tools {
		if r.tools[i].name == ev.Name {
			r.tools[i].calls++
			return
		}
	}
	r.tools = append(r.tools, toolCount{strings.Clone(ev.Name), 1})
}

// result takes the run's result.
func (r *Run) result(ev *Event) {
	r.Done, r.OK, r.DurationMS, r.Turns = true, ev.OK, ev.DurationMS, ev.Turns
	r.Reason, r.Origin = strings.Clone(ev.Reason), strings.Clone(ev.Origin)
	r.Models = r.Models[:0]
	for _, m := range ev.Models {
		r.Models = append(r.Models, strings.Clone(m))
	}
	if ev.Usage != nil {
		r.resultUsage, r.Usage = *ev.Usage, &r.resultUsage
		if ev.Usage.ContextWindow > 0 {
			r.ContextWindow = ev.Usage.ContextWindow
		}
	}
}

// ResultRun is what a result event says of its run, for a handler that
// has no session's run to read (a renderer a program feeds itself); an
// empty run for any other event, or a nil one. It shares ev's memory.
func (ev *Event) ResultRun() *Run {
	if ev == nil || ev.Kind != KindResult {
		return new(Run)
	}
	return &Run{Done: true, OK: ev.OK, Reason: ev.Reason, DurationMS: ev.DurationMS, Turns: ev.Turns,
		Origin: ev.Origin, Models: ev.Models, Usage: ev.Usage}
}
