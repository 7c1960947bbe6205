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

// same reports whether text is the hashed segment text: equal, or equal
// after trimming (Cursor's recaps may differ in surrounding space).
func same(text string, h *parsers.TextHash) bool {
	if h.Len() == len(text) && (h.Empty() || h.PrefixOf(text)) {
		return true
	}
	t := strings.TrimSpace(text)
	return t != "" && h.TrimmedIs(t)
}

// extends reports whether text begins with the hashed text.
func extends(text string, h *parsers.TextHash) bool {
	return h.Empty() || h.PrefixOf(text)
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
// Complete lines are Finals of the open segment, so the session shows a
// recap's text only where it differs from what the fragments showed.
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
	p.cur.text.Add(text)
	p.runText.Add(text)
	return p.emitText(l, 0, streaming.Delta, text, emit)
}

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
	p.lastParts = nonEmpty
	text := strings.Join(nonEmpty, "")

	if c := p.cur; c != nil {
		switch {
		case same(text, &c.text):
			// The recap of the fragments, or a repeat of the segment.
			c.full = true
			return nil
		case extends(text, &c.text) || !c.full:
			// A recap with more (or different) text than the fragments
			// showed: the session shows the difference.
			p.setSegment(text)
			c.full = true
			return p.emitText(l, 0, streaming.Final, text, emit)
		}
		// A different complete message after a complete one: a new segment.
		if err := p.closeSegment(l, emit); err != nil {
			return err
		}
	}
	if pd := p.pending; pd != nil {
		// A recap arriving after a boundary (a tool call or thinking closed
		// its segment first) belongs to the last segment that had
		// fragments and no recap.
		p.pending = nil
		if same(text, &pd.text) {
			return nil
		}
		if len(text) > pd.text.Len() && extends(text, &pd.text) {
			text = text[pd.text.Len():]
			nonEmpty = []string{text}
		}
	}
	if p.segCount >= 2 && same(text, &p.runText) {
		// The whole turn's text again (result.result's shape): shown already.
		return nil
	}
	if err := p.openSegment(l, emit); err != nil {
		return err
	}
	p.setSegment(text)
	p.cur.full = true
	for i, s := range nonEmpty {
		if err := p.emitText(l, i, streaming.Final, s, emit); err != nil {
			return err
		}
	}
	return nil
}

// setSegment makes text the open segment's text (an extension of it, or
// a rewrite), in its hash and the run's.
func (p *parser) setSegment(text string) {
	c := p.cur
	if extends(text, &c.text) {
		rest := text[c.text.Len():]
		c.text.Add(rest)
		p.runText.Add(rest)
		return
	}
	c.text.Reset()
	c.text.Add(text)
	p.runText = p.runBefore.Clone()
	p.runText.Add(text)
}

func (p *parser) emitText(l *parsers.Line, block int, mode streaming.Mode, text string, emit parsers.Emit) error {
	p.sawText = true
	ev := p.reset(streaming.KindTextDelta, l)
	ev.Message, ev.Role, ev.Block, ev.Text = p.cur.id, streaming.RoleAssistant, block, text
	return parsers.Send(emit, mode, ev)
}

func (p *parser) openSegment(l *parsers.Line, emit parsers.Emit) error {
	if p.cur != nil {
		return nil
	}
	p.cur = &segment{id: p.newID("text", l.N)}
	p.cur.text.Reset()
	p.runBefore = p.runText.Clone()
	ev := p.reset(streaming.KindMessageStart, l)
	ev.Message, ev.Role = p.cur.id, streaming.RoleAssistant
	return emit.Push(ev)
}

// closeSegment ends the open text segment (at a tool call, thinking, a
// user line, the result or a new run).
func (p *parser) closeSegment(l *parsers.Line, emit parsers.Emit) error {
	c := p.cur
	if c == nil {
		return nil
	}
	p.cur = nil
	if c.deltas && !c.full {
		p.pending = c
	} else {
		p.pending = nil
	}
	p.segCount++
	ev := p.reset(streaming.KindMessageStop, l)
	ev.Message, ev.Role = c.id, streaming.RoleAssistant
	return emit.Push(ev)
}
