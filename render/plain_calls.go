package render

import (
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/agentfmt/agentfmt/streaming"
)

// The plain renderer's tool calls begun: each kept in a buffer of its own,
// the buffers of ended calls reused (a free list, bounded).

// toolCall is a tool call begun: the nesting depth of its subagent work
// and the label of its start line, with what it was made from: the end
// line of the call reuses it (reading the input again costs as much as
// the rest of the line). All is copied (events are valid only during
// Handle) into buf: id, name, subject, title, label.
type toolCall struct {
	depth                 int
	buf                   []byte
	idEnd, nameEnd, inEnd int // where the id, name and subject end in buf
	titleEnd              int
	inputKept             bool                 // a large subject is not kept (nor the label reused)
	edits                 []streaming.FileEdit // the file changes the start named, for the end's diff
}

// maxKeptInput is the largest tool subject kept to reuse the label.
const maxKeptInput = 4 << 10

// Buffers of ended calls kept for reuse: how many, and how large.
const (
	maxFree    = 256
	maxFreeCap = 16 << 10
)

func (c *toolCall) id() string { return view.String(c.buf[:c.idEnd]) }

func (c *toolCall) label() string { return view.String(c.buf[c.titleEnd:]) }

// madeFrom reports whether the label was made from the end event's name,
// subject and title.
func (c *toolCall) madeFrom(ev *streaming.Event) bool {
	return c.inputKept && view.String(c.buf[c.idEnd:c.nameEnd]) == ev.Name &&
		view.String(c.buf[c.nameEnd:c.inEnd]) == ev.Subject && view.String(c.buf[c.inEnd:c.titleEnd]) == ev.Title
}

// startTool keeps a tool call begun at depth d and returns the label of
// its start line (valid until the call's entry is deleted).
func (p *Plain) startTool(ev *streaming.Event, d int) string {
	if old, ok := p.tools[ev.ID]; ok {
		// The id again: the entry goes (and with it the key, a view of
		// its buffer) before its buffer is reused.
		delete(p.tools, ev.ID)
		p.release(old.buf)
	}
	var b []byte
	if n := len(p.free); n > 0 {
		b, p.free[n-1] = p.free[n-1], nil
		p.free = p.free[:n-1]
	}
	c := toolCall{depth: d + 1, edits: streaming.CloneEdits(ev.Edits)}
	b = append(b, ev.ID...)
	c.idEnd = len(b)
	b = append(b, ev.Name...)
	c.nameEnd = len(b)
	if c.inputKept = len(ev.Subject) <= maxKeptInput; c.inputKept {
		b = append(b, ev.Subject...)
	}
	c.inEnd = len(b)
	b = append(b, ev.Title...)
	c.titleEnd = len(b)
	c.buf = p.appendLabel(b, ev)
	p.tools[c.id()] = c
	return c.label()
}

// release keeps the buffer of a deleted call's entry for reuse.
func (p *Plain) release(b []byte) {
	if len(p.free) < maxFree && cap(b) <= maxFreeCap {
		p.free = append(p.free, b[:0])
	}
}

// appendLabel appends a tool call's name and key argument.
func (p *Plain) appendLabel(b []byte, ev *streaming.Event) []byte {
	b = append(b, p.p.Bold(p.clean(ev.Name))...)
	if arg := KeyArg(ev); arg != "" {
		b = append(append(b, ' '), p.clean(TruncateRunes(arg, max(20, p.cfg.Width-len(ev.Name)-4)))...)
	}
	return b
}
