package render

import (
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/agentfmt/agentfmt/streaming"
)

// The plain renderer's tool calls are the session's (streaming.State):
// plain keeps on each only the label of its start line (Call.Mark), which
// the end line reuses when it is made from the same name, subject and
// title (reading the input again costs as much as the rest of the line).

// maxKeptInput is the largest tool subject whose label is kept.
const maxKeptInput = 4 << 10

// UseState gives the renderer the session's state (streaming.StateUser).
func (p *Plain) UseState(st streaming.State) { p.st = st }

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
func (p *Plain) call(id string) *streaming.Call {
	if p.st == nil {
		return nil
	}
	return p.st.Call(id)
}

// startTool returns the label of a call's start line, kept on the call
// for its end line.
func (p *Plain) startTool(ev *streaming.Event) string {
	c := p.call(ev.ID)
	if c == nil || len(ev.Subject) > maxKeptInput {
		p.lbuf = p.appendLabel(p.lbuf[:0], ev)
		return view.String(p.lbuf)
	}
	label := string(p.appendLabel(p.lbuf[:0], ev))
	c.Mark = label
	return label
}

// endLabel is the label of a call's end line: its start line's when made
// from the same name, subject and title.
func (p *Plain) endLabel(ev *streaming.Event) string {
	if c := p.call(ev.ID); c != nil {
		if l, ok := c.Mark.(string); ok && c.Name == ev.Name && c.Subject == ev.Subject && c.Title == ev.Title {
			return l
		}
	}
	p.lbuf = p.appendLabel(p.lbuf[:0], ev)
	return view.String(p.lbuf)
}

// appendLabel appends a tool call's name and key argument.
func (p *Plain) appendLabel(b []byte, ev *streaming.Event) []byte {
	b = append(b, p.p.Bold(p.clean(ev.Name))...)
	if arg := KeyArg(ev); arg != "" {
		b = append(append(b, ' '), p.clean(TruncateRunes(arg, max(20, p.cfg.Width-len(ev.Name)-4)))...)
	}
	return b
}
