package copilot

import (
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// messageID is the message a text event belongs to: its messageId, else
// the event's own id (an old build or a trimmed log).
func (p *parser) messageID(l *parsers.Line, d *data) string {
	id := redacted(l.Text(d.messageID))
	if id == "" {
		id = l.Str("id")
	}
	if id == "" {
		id = p.newID("msg", l.N)
	}
	return id
}

// openText opens an assistant text message unless it is open; it reports
// whether it was open already.
func (p *parser) openText(id, parent string, emit parsers.Emit) (bool, error) {
	if p.open[id] {
		return true, nil
	}
	p.open[strings.Clone(id)] = true
	e := p.event(streaming.KindMessageStart)
	e.Message, e.Role, e.Parent = id, streaming.RoleAssistant, parent
	return false, emit.Push(e)
}

// stopText stops an open text message.
func (p *parser) stopText(id string, emit parsers.Emit) error {
	if !p.open[id] {
		return nil
	}
	delete(p.open, id)
	e := p.event(streaming.KindMessageStop)
	e.Message, e.Role = id, streaming.RoleAssistant
	return emit.Push(e)
}

// textDelta is a streamed chunk of an assistant message.
func (p *parser) textDelta(l *parsers.Line, d *data, emit parsers.Emit) error {
	text := l.Text(d.deltaContent)
	if text == "" {
		return nil
	}
	if err := p.closeThinking(emit); err != nil {
		return err
	}
	id := p.messageID(l, d)
	if _, err := p.openText(id, l.Text(d.parentToolCallID), emit); err != nil {
		return err
	}
	e := p.event(streaming.KindTextDelta)
	e.Message, e.Role, e.Text = id, streaming.RoleAssistant, text
	return emit.Push(e)
}

// message is the persisted, authoritative assistant message: its
// reasoning (a final of the call's thinking), then its whole text as a
// final of the message its deltas streamed, which it then stops. A
// message that only requested tools has empty content; the tool calls
// themselves are shown from tool.execution_start.
func (p *parser) message(l *parsers.Line, d *data, emit parsers.Emit) error {
	if p.thinkDone {
		// Another message after the call's message: a new model call
		// (a log without turn_start lines).
		if err := p.newCall(emit); err != nil {
			return err
		}
	}
	if r := redacted(l.Text(d.reasoningText)); r != "" {
		if err := p.thinking(r, streaming.Final, emit); err != nil {
			return err
		}
	}
	if err := p.closeThinking(emit); err != nil {
		return err
	}
	p.thinkDone = p.think != ""
	id := p.messageID(l, d)
	text := redacted(l.Text(d.content))
	if text != "" {
		if _, err := p.openText(id, l.Text(d.parentToolCallID), emit); err != nil {
			return err
		}
		e := p.event(streaming.KindTextDelta)
		e.Message, e.Role, e.Text = id, streaming.RoleAssistant, text
		if err := emit.Final(e); err != nil {
			return err
		}
	}
	return p.stopText(id, emit)
}

// thinking sends reasoning text to the current model call's thinking
// message, opening it on the first text of the call. After the call's
// assistant.message closed it, a final is still sent under its id: the
// session drops it as a final of a finished message (shown once).
func (p *parser) thinking(text string, mode streaming.Mode, emit parsers.Emit) error {
	if text == "" {
		return nil
	}
	if mode == streaming.Delta && p.thinkDone {
		// Streamed reasoning after the call's message: a new call's.
		if err := p.newCall(emit); err != nil {
			return err
		}
	}
	if p.think == "" {
		p.think = p.newID("reasoning", p.n)
		p.thinkOpen = true
		e := p.event(streaming.KindMessageStart)
		e.Message, e.Role = p.think, streaming.RoleAssistant
		if err := emit.Push(e); err != nil {
			return err
		}
	}
	e := p.event(streaming.KindThinkingDelta)
	e.Message, e.Role, e.Text = p.think, streaming.RoleAssistant, text
	return parsers.Send(emit, mode, e)
}

// newCall begins a model call: the previous call's thinking is closed
// and forgotten.
func (p *parser) newCall(emit parsers.Emit) error {
	err := p.closeThinking(emit)
	p.think, p.thinkDone = "", false
	return err
}

// closeThinking stops the open thinking message. Its id is kept until
// the next model call, so the call's later reasoning events are known as
// repeats.
func (p *parser) closeThinking(emit parsers.Emit) error {
	if !p.thinkOpen {
		return nil
	}
	p.thinkOpen = false
	e := p.event(streaming.KindMessageStop)
	e.Message, e.Role = p.think, streaming.RoleAssistant
	return emit.Push(e)
}

// closeAll stops every message the parser opened.
func (p *parser) closeAll(emit parsers.Emit) error {
	if err := p.closeThinking(emit); err != nil {
		return err
	}
	for id := range p.open {
		if err := p.stopText(id, emit); err != nil {
			return err
		}
	}
	return nil
}

// userMessage is the prompt: a user message with its whole text.
func (p *parser) userMessage(l *parsers.Line, d *data, emit parsers.Emit) error {
	if err := p.closeThinking(emit); err != nil {
		return err
	}
	text := redacted(l.Text(d.content))
	id := l.Str("id")
	if id == "" {
		id = p.newID("prompt", l.N)
	}
	id = "user:" + id
	e := p.event(streaming.KindMessageStart)
	e.Message, e.Role = id, streaming.RoleUser
	if err := emit.Push(e); err != nil {
		return err
	}
	if text != "" {
		e = p.event(streaming.KindTextDelta)
		e.Message, e.Role, e.Text = id, streaming.RoleUser, text
		if err := emit.Final(e); err != nil {
			return err
		}
	}
	e = p.event(streaming.KindMessageStop)
	e.Message, e.Role = id, streaming.RoleUser
	return emit.Push(e)
}

// usage is one model call's tokens (assistant.usage: in the schema, not
// yet seen on -p stdout).
func (p *parser) usage(l *parsers.Line, d *data, emit parsers.Emit) error {
	num := func(raw string) int64 { return parsers.Value(raw).Int() }
	u := streaming.Usage{
		InputTokens:      num(d.inputTokens),
		OutputTokens:     num(d.outputTokens),
		CacheReadTokens:  num(d.cacheReadTokens),
		CacheWriteTokens: num(d.cacheWriteTokens),
	}
	if u == (streaming.Usage{}) {
		return nil
	}
	e := p.event(streaming.KindUsage)
	e.Usage = &u
	e.Model = l.Text(d.model)
	return emit.Push(e)
}
