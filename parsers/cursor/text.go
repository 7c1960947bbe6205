package cursor

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
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

// closeText closes the open thinking, then the open text segment.
func (p *parser) closeText() error {
	if err := p.closeThinking(); err != nil {
		return err
	}
	return p.closeSegment()
}

func (p *parser) user(l *parsers.Line) error {
	if err := p.closeText(); err != nil {
		return err
	}
	parts := textParts(l)
	if len(parts) == 0 {
		return p.unknown(l)
	}
	text := strings.Join(parts, "\n")
	m := parsers.Msg{ID: p.ids.At("user", l.N), Role: streaming.RoleUser}
	return p.out.Blocks(m, text)
}

// thinkingDelta appends to the open thinking block. A thinking line is a
// segment boundary for assistant text.
func (p *parser) thinkingDelta(l *parsers.Line) error {
	if err := p.closeSegment(); err != nil {
		return err
	}
	text := l.Str("text")
	if text == "" {
		return nil
	}
	if err := p.openThinking(l); err != nil {
		return err
	}
	// Deltas (cursor.md: concatenate text); the session alone judges one
	// that repeats the block.
	return p.out.Text(assistant(p.think), streaming.KindThinkingDelta, 0, text, streaming.Delta)
}

// thinkingCompleted ends the thinking block (with its whole text, if the
// line carries one).
func (p *parser) thinkingCompleted(l *parsers.Line) error {
	if text := l.Str("text"); text != "" {
		if err := p.closeSegment(); err != nil {
			return err
		}
		if err := p.openThinking(l); err != nil {
			return err
		}
		if err := p.out.Text(assistant(p.think), streaming.KindThinkingDelta, 0, text, streaming.Final); err != nil {
			return err
		}
	}
	return p.closeThinking()
}

func (p *parser) openThinking(l *parsers.Line) error {
	if p.think != "" {
		return nil
	}
	p.think = p.ids.At("think", l.N)
	return p.out.Start(assistant(p.think))
}

func (p *parser) closeThinking() error {
	if p.think == "" {
		return nil
	}
	m := assistant(p.think)
	p.think = ""
	return p.out.Stop(m)
}

// assistant handles the three kinds of assistant line
// (docs/formats/cursor.md):
//   - with timestamp_ms and no model_call_id: a --stream-partial-output
//     fragment, new text (Delta);
//   - with model_call_id: a complete mid-turn segment (without partial
//     output) or the recap of the fragments just streamed (with it);
//   - with neither: the final segment, or its recap.
//
// A recap is a final of its segment, so the session shows its text only
// where it differs from what the fragments showed (see complete).
func (p *parser) assistant(l *parsers.Line) error {
	if err := p.closeThinking(); err != nil {
		return err
	}
	parts := textParts(l)
	if l.Has("timestamp_ms") && !l.Has("model_call_id") {
		return p.fragment(l, strings.Join(parts, ""))
	}
	return p.complete(l, parts)
}

func (p *parser) fragment(l *parsers.Line, text string) error {
	if text == "" {
		return nil
	}
	if p.cur != nil && p.cur.full {
		// The open segment was recapped: this starts the next one.
		if err := p.closeSegment(); err != nil {
			return err
		}
	}
	if err := p.openSegment(l); err != nil {
		return err
	}
	p.cur.deltas = true
	return p.emitText(l, streaming.Delta, text)
}

// complete handles a complete assistant line: the recap of the open
// segment's fragments, a line that may repeat the segment before it, or a
// segment of its own (one per part: composer models put progress and the
// final text in separate parts, and the answer is the last).
func (p *parser) complete(l *parsers.Line, parts []string) error {
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
		return p.emitText(l, streaming.Final, text)
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
		if err := p.openSegment(l); err != nil {
			return err
		}
		p.cur.full, p.cur.prev = true, of
		p.sawText = true
		ev := p.out.New(streaming.KindTextDelta)
		ev.Message, ev.Role, ev.Text, ev.Restates = p.cur.id, streaming.RoleAssistant, text, of.id
		return p.out.Restate()
	}
	for i, part := range nonEmpty {
		if i > 0 {
			if err := p.closeSegment(); err != nil {
				return err
			}
		}
		if err := p.openSegment(l); err != nil {
			return err
		}
		p.cur.full = true
		if err := p.emitText(l, streaming.Final, part); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) emitText(l *parsers.Line, mode streaming.Mode, text string) error {
	p.sawText = true
	ev := p.out.New(streaming.KindTextDelta)
	ev.Message, ev.Role, ev.Text = p.cur.id, streaming.RoleAssistant, text
	return p.out.Send(mode)
}

// openSegment starts a segment unless one is open; a segment of
// fragments left without its recap stops first.
func (p *parser) openSegment(l *parsers.Line) error {
	if p.cur != nil {
		return nil
	}
	if err := p.stopSegment(p.pending); err != nil {
		return err
	}
	p.pending = nil
	p.cur = &segment{id: p.ids.At("text", l.N)}
	return p.out.Start(assistant(p.cur.id))
}

// closeSegment ends the open text segment (at a tool call, thinking, a
// user line, the result or a new run). A segment of fragments that has
// had no recap yet is left open: its recap may come after the tool call
// or thinking that ended it.
func (p *parser) closeSegment() error {
	c := p.cur
	if c == nil {
		return nil
	}
	p.cur = nil
	if c.deltas && !c.full {
		if err := p.stopSegment(p.pending); err != nil {
			return err
		}
		p.pending = c
		return nil
	}
	return p.stopSegment(c)
}

// endSegments stops every segment still open (the result, a new run, the
// end of input).
func (p *parser) endSegments() error {
	if err := p.closeSegment(); err != nil {
		return err
	}
	err := p.stopSegment(p.pending)
	p.pending = nil
	return err
}

// stopSegment sends message.stop for c and the segment it may repeat.
func (p *parser) stopSegment(c *segment) error {
	for ; c != nil; c = c.prev {
		if err := p.out.Stop(assistant(c.id)); err != nil {
			return err
		}
	}
	return nil
}

// assistant names an assistant message for the kit.
func assistant(id string) parsers.Msg { return parsers.Msg{ID: id, Role: streaming.RoleAssistant} }
