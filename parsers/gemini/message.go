package gemini

import (
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// paragraph is the assistant message being streamed: the deltas of one
// model turn up to the next tool call, error or result. Its text is the
// session's; the parser follows it only by hash (see runText), to tell
// whether a complete message repeats it.
type paragraph struct {
	id   string
	text parsers.TextHash
}

func (p *parser) message(l *parsers.Line, emit parsers.Emit) error {
	text := contentText(l.Get("content"))
	switch l.Str("role") {
	case "user":
		return p.userMessage(text, emit)
	case "assistant", "model":
		if l.Get("delta").Bool() {
			return p.delta(text, emit)
		}
		return p.complete(text, emit)
	}
	e := p.event(streaming.KindUnknown)
	e.Type = "message"
	e.Text = l.JSON
	return emit.Push(e)
}

// contentText reads a message's content: a string on the wire; a fork
// could send Gemini API parts ([{text}]), whose texts are joined.
func contentText(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.Str
	}
	if !v.IsArray() {
		return ""
	}
	var b strings.Builder
	v.ForEach(func(_, part gjson.Result) bool {
		if t := part.Get("text"); t.Type == gjson.String && !part.Get("thought").Bool() {
			b.WriteString(t.Str)
		}
		return true
	})
	return b.String()
}

// userMessage is the prompt echo: one user message with its whole text.
func (p *parser) userMessage(text string, emit parsers.Emit) error {
	if err := p.closePara(emit); err != nil {
		return err
	}
	id := p.nextID("prompt")
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

// delta is an assistant chunk, passed on as a delta: the session decides
// what a chunk that repeats the paragraph is (DESIGN §4 rule 3).
func (p *parser) delta(text string, emit parsers.Emit) error {
	if text == "" {
		return nil
	}
	if err := p.openPara(emit); err != nil {
		return err
	}
	e := p.event(streaming.KindTextDelta)
	e.Message, e.Role, e.Text = p.para.id, streaming.RoleAssistant, text
	p.para.text.Add(text)
	p.runText.Add(text)
	return emit.Push(e)
}

// complete is an assistant message without "delta": Gemini CLI does not
// send these, but a fork or a later version may close a streamed turn with
// the whole text. It is shown only where it adds something.
func (p *parser) complete(text string, emit parsers.Emit) error {
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return nil
	}
	switch {
	case p.para.id != "" && p.para.text.PrefixOf(text):
		// The open paragraph, complete: a final, of which the session
		// shows what is new.
		p.runText.Add(text[p.para.text.Len():])
		p.para.text.Add(text[p.para.text.Len():])
		e := p.event(streaming.KindTextDelta)
		e.Message, e.Role, e.Text = p.para.id, streaming.RoleAssistant, text
		return emit.Final(e)
	case p.runText.TrimmedIs(trimmed),
		p.para.id == "" && p.lastPara.TrimmedIs(trimmed):
		// The whole run's text again (json-mode style), or the paragraph
		// that just ended.
		return nil
	case !p.runText.Empty() && p.runText.PrefixOf(text):
		return p.delta(text[p.runText.Len():], emit)
	}
	if err := p.closePara(emit); err != nil {
		return err
	}
	if err := p.openPara(emit); err != nil {
		return err
	}
	e := p.event(streaming.KindTextDelta)
	e.Message, e.Role, e.Text = p.para.id, streaming.RoleAssistant, text
	p.para.text.Add(text)
	p.runText.Add(text)
	return emit.Final(e)
}

// openPara starts an assistant message unless one is open.
func (p *parser) openPara(emit parsers.Emit) error {
	if p.para.id != "" {
		return nil
	}
	p.para.id = p.nextID("turn")
	p.para.text.Reset()
	e := p.event(streaming.KindMessageStart)
	e.Message, e.Role = p.para.id, streaming.RoleAssistant
	return emit.Push(e)
}

// closePara ends the open assistant message: a tool event, an error line,
// the result or the end of input ends a paragraph.
func (p *parser) closePara(emit parsers.Emit) error {
	if p.para.id == "" {
		return nil
	}
	id := p.para.id
	p.para.id = ""
	p.lastPara, p.para.text = p.para.text, p.lastPara
	e := p.event(streaming.KindMessageStop)
	e.Message, e.Role = id, streaming.RoleAssistant
	return emit.Push(e)
}
