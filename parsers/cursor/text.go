package cursor

import (
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// textParts returns the text parts of message.content: an array of
// {"type":"text","text":…} blocks, or a plain string.
func textParts(l *parsers.Line) []string {
	c := l.Path("message.content")
	if c.Type == gjson.String {
		return []string{c.Str}
	}
	var parts []string
	c.ForEach(func(_, b gjson.Result) bool {
		if t := b.Get("type").Str; t == "text" || t == "" {
			if tx := b.Get("text"); tx.Type == gjson.String {
				parts = append(parts, tx.Str)
			}
		}
		return true
	})
	return parts
}

func (p *parser) user(l *parsers.Line, emit parsers.Emit) error {
	if err := p.closeThinking(l, emit); err != nil {
		return err
	}
	if err := p.closeSegment(l, emit); err != nil {
		return err
	}
	parts := textParts(l)
	if len(parts) == 0 {
		return p.unknown(l, emit)
	}
	text := strings.Join(parts, "\n")
	id := p.newID("user", l.N)
	ev := p.reset(streaming.KindMessageStart, l)
	ev.Message, ev.Role = id, streaming.RoleUser
	if err := emit.Push(ev); err != nil {
		return err
	}
	ev = p.reset(streaming.KindTextDelta, l)
	ev.Message, ev.Role, ev.Text = id, streaming.RoleUser, text
	if err := emit.Final(ev); err != nil {
		return err
	}
	ev = p.reset(streaming.KindMessageStop, l)
	ev.Message, ev.Role = id, streaming.RoleUser
	return emit.Push(ev)
}

// thinkingDelta appends to the open thinking block. A thinking line is a
// segment boundary for assistant text.
func (p *parser) thinkingDelta(l *parsers.Line, emit parsers.Emit) error {
	if err := p.closeSegment(l, emit); err != nil {
		return err
	}
	text := l.Str("text")
	if text == "" {
		return nil
	}
	if err := p.openThinking(l, emit); err != nil {
		return err
	}
	// Deltas (cursor.md: concatenate text); the session alone judges one
	// that repeats the block.
	ev := p.reset(streaming.KindThinkingDelta, l)
	ev.Message, ev.Role, ev.Text = p.think, streaming.RoleAssistant, text
	return emit.Push(ev)
}

// thinkingCompleted ends the thinking block (with its whole text, if the
// line carries one).
func (p *parser) thinkingCompleted(l *parsers.Line, emit parsers.Emit) error {
	if text := l.Str("text"); text != "" {
		if err := p.closeSegment(l, emit); err != nil {
			return err
		}
		if err := p.openThinking(l, emit); err != nil {
			return err
		}
		ev := p.reset(streaming.KindThinkingDelta, l)
		ev.Message, ev.Role, ev.Text = p.think, streaming.RoleAssistant, text
		if err := emit.Final(ev); err != nil {
			return err
		}
	}
	return p.closeThinking(l, emit)
}

func (p *parser) openThinking(l *parsers.Line, emit parsers.Emit) error {
	if p.think != "" {
		return nil
	}
	p.think = p.newID("think", l.N)
	ev := p.reset(streaming.KindMessageStart, l)
	ev.Message, ev.Role = p.think, streaming.RoleAssistant
	return emit.Push(ev)
}

func (p *parser) closeThinking(l *parsers.Line, emit parsers.Emit) error {
	if p.think == "" {
		return nil
	}
	ev := p.reset(streaming.KindMessageStop, l)
	ev.Message, ev.Role = p.think, streaming.RoleAssistant
	p.think = ""
	return emit.Push(ev)
}

// assistant handles the three kinds of assistant line (cursor.md §2, §4):
//   - with timestamp_ms and no model_call_id: a --stream-partial-output
//     fragment, new text (Delta);
//   - with model_call_id: a complete mid-turn segment (without partial
//     output) or the recap of the fragments just streamed (with it);
//   - with neither: the final segment, or its recap.
//
// A recap is a final of its segment, so the session shows its text only
// where it differs from what the fragments showed (see complete).
func (p *parser) assistant(l *parsers.Line, emit parsers.Emit) error {
	if err := p.closeThinking(l, emit); err != nil {
		return err
	}
	parts := textParts(l)
	if l.Has("timestamp_ms") && !l.Has("model_call_id") {
		return p.fragment(l, strings.Join(parts, ""), emit)
	}
	return p.complete(l, parts, emit)
}

func (p *parser) fragment(l *parsers.Line, text string, emit parsers.Emit) error {
	if text == "" {
		return nil
	}
	if p.cur != nil && p.cur.full {
		// The open segment was recapped: this starts the next one.
		if err := p.closeSegment(l, emit); err != nil {
			return err
		}
	}
	if err := p.openSegment(l, emit); err != nil {
		return err
	}
	p.cur.deltas = true
	return p.emitText(l, streaming.Delta, text, emit)
}

// complete handles a complete assistant line: the recap of the open
// segment's fragments, a line that may repeat the segment before it, or a
// segment of its own (one per part: composer models put progress and the
// final text in separate parts, and the answer is the last).
func (p *parser) complete(l *parsers.Line, parts []string, emit parsers.Emit) error {
	var nonEmpty []string
	for _, s := range parts {
		if s != "" {
			nonEmpty = append(nonEmpty, s)
		}
	}
	if len(nonEmpty) == 0 {
		return nil
	}
	text := strings.Join(nonEmpty, "")
	if c := p.cur; c != nil && !c.full {
		// The recap of the fragments: a final of the segment, of which
		// the session shows what differs (more text, or a rewrite).
		c.full = true
		return p.emitText(l, streaming.Final, text, emit)
	}
	of := p.cur
	if of == nil {
		of = p.pending
	}
	if of != nil {
		// A complete line after a complete segment (a second recap of it,
		// or a segment of its own), or after the boundary that closed a
		// segment of fragments (its recap, or a segment of its own): the
		// session tells, comparing it with the segment (a restatement).
		// The segment stays open until the new one stops.
		p.cur, p.pending = nil, nil
		if err := p.openSegment(l, emit); err != nil {
			return err
		}
		p.cur.full, p.cur.prev = true, of
		p.sawText = true
		ev := p.reset(streaming.KindTextDelta, l)
		ev.Message, ev.Role, ev.Text, ev.Restates = p.cur.id, streaming.RoleAssistant, text, of.id
		return emit.Restate(ev)
	}
	for i, part := range nonEmpty {
		if i > 0 {
			if err := p.closeSegment(l, emit); err != nil {
				return err
			}
		}
		if err := p.openSegment(l, emit); err != nil {
			return err
		}
		p.cur.full = true
		if err := p.emitText(l, streaming.Final, part, emit); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) emitText(l *parsers.Line, mode streaming.Mode, text string, emit parsers.Emit) error {
	p.sawText = true
	ev := p.reset(streaming.KindTextDelta, l)
	ev.Message, ev.Role, ev.Text = p.cur.id, streaming.RoleAssistant, text
	return parsers.Send(emit, mode, ev)
}

// openSegment starts a segment unless one is open; a segment of
// fragments left without its recap stops first.
func (p *parser) openSegment(l *parsers.Line, emit parsers.Emit) error {
	if p.cur != nil {
		return nil
	}
	if err := p.stopSegment(l, p.pending, emit); err != nil {
		return err
	}
	p.pending = nil
	p.cur = &segment{id: p.newID("text", l.N)}
	ev := p.reset(streaming.KindMessageStart, l)
	ev.Message, ev.Role = p.cur.id, streaming.RoleAssistant
	return emit.Push(ev)
}

// closeSegment ends the open text segment (at a tool call, thinking, a
// user line, the result or a new run). A segment of fragments that has
// had no recap yet is left open: its recap may come after the tool call
// or thinking that ended it.
func (p *parser) closeSegment(l *parsers.Line, emit parsers.Emit) error {
	c := p.cur
	if c == nil {
		return nil
	}
	p.cur = nil
	if c.deltas && !c.full {
		if err := p.stopSegment(l, p.pending, emit); err != nil {
			return err
		}
		p.pending = c
		return nil
	}
	return p.stopSegment(l, c, emit)
}

// endSegments stops every segment still open (the result, a new run, the
// end of input).
func (p *parser) endSegments(l *parsers.Line, emit parsers.Emit) error {
	if err := p.closeSegment(l, emit); err != nil {
		return err
	}
	err := p.stopSegment(l, p.pending, emit)
	p.pending = nil
	return err
}

// stopSegment sends message.stop for c and the segment it may repeat.
func (p *parser) stopSegment(l *parsers.Line, c *segment, emit parsers.Emit) error {
	for ; c != nil; c = c.prev {
		ev := p.reset(streaming.KindMessageStop, l)
		ev.Message, ev.Role = c.id, streaming.RoleAssistant
		if err := emit.Push(ev); err != nil {
			return err
		}
	}
	return nil
}
