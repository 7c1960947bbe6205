package copilot

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
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
		id = p.ids.At("msg", l.N)
	}
	return id
}

// openText opens an assistant text message unless it is open; it reports
// whether it was open already.
func (p *parser) openText(id, parent string) (bool, error) {
	if p.open[id] {
		return true, nil
	}
	p.open[strings.Clone(id)] = true
	return false, p.out.Start(parsers.Msg{ID: id, Role: streaming.RoleAssistant, Parent: parent})
}

// stopText stops an open text message.
func (p *parser) stopText(id string) error {
	if !p.open[id] {
		return nil
	}
	delete(p.open, id)
	return p.out.Stop(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
}

// textDelta is a streamed chunk of an assistant message.
func (p *parser) textDelta(l *parsers.Line, d *data) error {
	text := l.Text(d.deltaContent)
	if text == "" {
		return nil
	}
	if err := p.closeThinking(); err != nil {
		return err
	}
	id := p.messageID(l, d)
	if _, err := p.openText(id, l.Text(d.parentToolCallID)); err != nil {
		return err
	}
	return p.out.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindTextDelta, 0, text, streaming.Delta)
}

// message is the persisted, authoritative assistant message: its
// reasoning (a final of the call's thinking), then its whole text as a
// final of the message its deltas streamed, which it then stops. A
// message that only requested tools has empty content; the tool calls
// themselves are shown from tool.execution_start.
func (p *parser) message(l *parsers.Line, d *data) error {
	if p.thinkDone {
		// Another message after the call's message: a new model call
		// (a log without turn_start lines).
		if err := p.newCall(); err != nil {
			return err
		}
	}
	if r := redacted(l.Text(d.reasoningText)); r != "" {
		if err := p.thinking(r, streaming.Final); err != nil {
			return err
		}
	}
	if err := p.closeThinking(); err != nil {
		return err
	}
	p.thinkDone = p.think != ""
	id := p.messageID(l, d)
	text := redacted(l.Text(d.content))
	if text != "" {
		if _, err := p.openText(id, l.Text(d.parentToolCallID)); err != nil {
			return err
		}
		if err := p.out.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindTextDelta, 0, text, streaming.Final); err != nil {
			return err
		}
	}
	return p.stopText(id)
}

// thinking sends reasoning text to the current model call's thinking
// message, opening it on the first text of the call. After the call's
// assistant.message closed it, a final is still sent under its id: the
// session drops it as a final of a finished message (shown once).
func (p *parser) thinking(text string, mode streaming.Mode) error {
	if text == "" {
		return nil
	}
	if mode == streaming.Delta && p.thinkDone {
		// Streamed reasoning after the call's message: a new call's.
		if err := p.newCall(); err != nil {
			return err
		}
	}
	if p.think == "" {
		p.think = p.ids.At("reasoning", p.n)
		p.thinkOpen = true
		if err := p.out.Start(parsers.Msg{ID: p.think, Role: streaming.RoleAssistant}); err != nil {
			return err
		}
	}
	return p.out.Text(parsers.Msg{ID: p.think, Role: streaming.RoleAssistant}, streaming.KindThinkingDelta, 0, text, mode)
}

// newCall begins a model call: the previous call's thinking is closed
// and forgotten.
func (p *parser) newCall() error {
	err := p.closeThinking()
	p.think, p.thinkDone = "", false
	return err
}

// closeThinking stops the open thinking message. Its id is kept until
// the next model call, so the call's later reasoning events are known as
// repeats.
func (p *parser) closeThinking() error {
	if !p.thinkOpen {
		return nil
	}
	p.thinkOpen = false
	return p.out.Stop(parsers.Msg{ID: p.think, Role: streaming.RoleAssistant})
}

// closeAll stops every message the parser opened.
func (p *parser) closeAll() error {
	if err := p.closeThinking(); err != nil {
		return err
	}
	for id := range p.open {
		if err := p.stopText(id); err != nil {
			return err
		}
	}
	return nil
}

// userMessage is the prompt: a user message with its whole text.
func (p *parser) userMessage(l *parsers.Line, d *data) error {
	if err := p.closeThinking(); err != nil {
		return err
	}
	text := redacted(l.Text(d.content))
	id := l.Str("id")
	if id == "" {
		id = p.ids.At("prompt", l.N)
	}
	m := parsers.Msg{ID: "user:" + id, Role: streaming.RoleUser}
	return p.out.Blocks(m, text)
}

// usage is one model call's tokens (assistant.usage: in the schema, not
// yet seen on -p stdout).
func (p *parser) usage(l *parsers.Line, d *data) error {
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
	e := p.out.New(streaming.KindUsage)
	e.Usage = &u
	e.Model = l.Text(d.model)
	return p.out.Push()
}
