package render

import (
	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/agentfmt/agentfmt/streaming"
)

// The plain renderer's tool calls are the session's (streaming.State):
// plain keeps nothing of them. A start and an end line are labelled from
// the event's name and subject, which the decoder has read from the input
// (making a label again costs less than keeping one: a copy and an
// allocation for the session's Call.Mark each call).

// UseState gives the renderer the session's state (streaming.StateUser).
func (p *plainRenderer) UseState(st streaming.State) { p.st = st }

// callDepth is how deep the work under the tool call parent is nested,
// as the session says (1 for a call it does not hold).
func callDepth(st streaming.State, parent string) int {
	if parent == "" {
		return 0
	}
	if st != nil {
		if c := st.Call(parent); c != nil {
			return c.Depth
		}
	}
	return 1
}

// call is the session's open tool call id, or nil.
func (p *plainRenderer) call(id string) *streaming.Call {
	if p.st == nil {
		return nil
	}
	return p.st.Call(id)
}

// startTool returns the label of a call's start line, valid until the
// next label.
func (p *plainRenderer) startTool(ev *streaming.Event) string {
	p.lbuf = p.appendLabel(p.lbuf[:0], ev)
	return view.String(p.lbuf)
}

// endLabel is the label of a call's end line, valid until the next label.
func (p *plainRenderer) endLabel(ev *streaming.Event) string { return p.startTool(ev) }

// appendLabel appends a tool call's name and key argument.
func (p *plainRenderer) appendLabel(b []byte, ev *streaming.Event) []byte {
	b = append(b, p.p.Bold(p.clean(ev.Name))...)
	if arg := eventtext.KeyArg(ev); arg != "" {
		b = append(append(b, ' '), p.clean(eventtext.TruncateRunes(arg, max(20, p.cfg.Width-len(ev.Name)-4)))...)
	}
	return b
}

// planMade marks (Call.Mark) a call that made a plan: plain shows the
// plan, as pretty does, and not the call's output.
type planMade struct{}

// madePlan reports that call c made a plan.
func madePlan(c *streaming.Call) bool {
	if c == nil {
		return false
	}
	_, ok := c.Mark.(planMade)
	return ok
}

// repeatsAnswer reports that call c's output is the answer of the work it
// started, which was shown as that work's text (a subagent's last message
// and its Task's result): it is shown once.
func repeatsAnswer(c *streaming.Call) bool { return c != nil && c.RepeatsAnswer }

// subOf is the label of the work under the call parent (a subagent's),
// or nil.
func (p *plainRenderer) subOf(parent string) *subLabel {
	if parent == "" {
		return nil
	}
	c := p.call(parent)
	if c == nil {
		return nil
	}
	if c == p.subs.call {
		return p.subs.last
	}
	l := newSubLabel(p.p, c, c.Depth)
	p.subs.call, p.subs.last = c, l
	if l != nil {
		p.subs.w = max(p.subs.w, l.w)
	}
	return l
}
