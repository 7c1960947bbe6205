package codex

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// lstream is one legacy text stream (agent messages, reasoning summaries,
// raw reasoning). The legacy protocol has no message ids: deltas
// (agent_message_delta, printed by `codex proto` and early builds) open a
// message, and the full event that follows (agent_message) is its final
// text, so the text is shown once. A full event with no deltas before it
// is a message of its own. Reasoning section breaks start a new block;
// the full agent_reasoning events that follow are the blocks' finals, in
// order. When other output starts while a streamed message waits for its
// finals, the message is stopped (so a live display is not held up); the
// finals that come late still go to it, and the session drops them as
// text already shown.
type lstream struct {
	kind    streaming.Kind
	id      string // key of the streamed message, "" when none
	blocks  int    // blocks opened by deltas
	text    bool   // the current block has text
	finals  int    // finals received for the message
	stopped bool   // message.stop was sent
}

func (s *lstream) reset() { *s = lstream{kind: s.kind} }

// sectionBreak starts a new block once the current one has text.
func (s *lstream) sectionBreak() {
	if s.id != "" && s.text {
		s.blocks++
		s.text = false
	}
}

func (p *parser) resetLegacyText() {
	p.lmsg.reset()
	p.lrsn.reset()
	p.lraw.reset()
}

// settle stops the streamed messages other than s's: other output began.
func (p *parser) settle(s *lstream) error {
	for _, o := range []*lstream{&p.lmsg, &p.lrsn, &p.lraw} {
		if o == s || o.id == "" || o.stopped {
			continue
		}
		o.stopped = true
		if err := p.messageStop(o.id, streaming.RoleAssistant); err != nil {
			return err
		}
	}
	return nil
}

// lDelta sends a legacy delta to the stream's open message, opening one
// when there is none.
func (p *parser) lDelta(s *lstream, text string) error {
	if text == "" {
		return nil
	}
	p.active = true
	if err := p.settle(s); err != nil {
		return err
	}
	if s.id == "" || s.stopped {
		s.reset()
		s.id = p.ids.Next("msg_")
		s.blocks = 1
		if err := p.messageStart(s.id, streaming.RoleAssistant); err != nil {
			return err
		}
	}
	s.text = true
	return p.out.Text(parsers.Msg{ID: s.id, Role: streaming.RoleAssistant}, s.kind, s.blocks-1, text, streaming.Delta)
}

// lFinal sends a legacy full event: the final text of the streamed block
// it completes, or a message of its own.
func (p *parser) lFinal(s *lstream, text string) error {
	p.active = true
	if err := p.settle(s); err != nil {
		return err
	}
	if s.id != "" && s.finals < s.blocks {
		id, block := s.id, s.finals
		s.finals++
		if err := p.out.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, s.kind, block, text, streaming.Final); err != nil {
			return err
		}
		if s.finals < s.blocks {
			return nil
		}
		stopped := s.stopped
		s.reset()
		if stopped {
			return nil
		}
		return p.messageStop(id, streaming.RoleAssistant)
	}
	if text == "" {
		return nil
	}
	id := p.ids.Next("msg_")
	if err := p.messageStart(id, streaming.RoleAssistant); err != nil {
		return err
	}
	if err := p.out.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, s.kind, 0, text, streaming.Final); err != nil {
		return err
	}
	return p.messageStop(id, streaming.RoleAssistant)
}

// userMessage shows a prompt as a user message.
func (p *parser) userMessage(text string) error {
	p.active = true
	id := p.ids.Next("prompt_")
	if err := p.messageStart(id, streaming.RoleUser); err != nil {
		return err
	}
	if err := p.out.Text(parsers.Msg{ID: id, Role: streaming.RoleUser}, streaming.KindTextDelta, 0, text, streaming.Delta); err != nil {
		return err
	}
	return p.messageStop(id, streaming.RoleUser)
}
