package gemini

import (
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// paragraph is the assistant message being streamed: the deltas of one
// model turn up to the next tool call, error or result.
type paragraph struct {
	id   string
	text []byte // what it holds so far, repaired as the session repairs it
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
	return emit(e)
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
	if err := emit(e); err != nil {
		return err
	}
	if text != "" {
		e = p.event(streaming.KindTextDelta)
		e.Message, e.Role, e.Text, e.Mode = id, streaming.RoleUser, text, streaming.Final
		if err := emit(e); err != nil {
			return err
		}
	}
	e = p.event(streaming.KindMessageStop)
	e.Message, e.Role = id, streaming.RoleUser
	return emit(e)
}

// delta is an assistant chunk. It is passed on as a delta even when it
// repeats the paragraph so far (a cumulative chunk): the session's
// snapshot-as-delta rule keeps only its new suffix and counts the repair.
func (p *parser) delta(text string, emit parsers.Emit) error {
	if text == "" {
		return nil
	}
	if err := p.openPara(emit); err != nil {
		return err
	}
	e := p.event(streaming.KindTextDelta)
	e.Message, e.Role, e.Text, e.Mode = p.para.id, streaming.RoleAssistant, text, streaming.Delta
	p.note(text)
	return emit(e)
}

// note adds a chunk to the paragraph's and the run's text the way the
// session will: a chunk that repeats the whole paragraph (at least
// SnapshotMinBytes of it) adds only its suffix.
func (p *parser) note(chunk string) {
	have := p.para.text
	if len(have) >= streaming.SnapshotMinBytes && len(chunk) >= len(have) && chunk[:len(have)] == string(have) {
		chunk = chunk[len(have):]
	}
	p.para.text = append(p.para.text, chunk...)
	p.runText.add(chunk)
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
	case p.para.id != "" && strings.HasPrefix(text, string(p.para.text)):
		// The open paragraph, complete: the session shows what is new.
		rest := text[len(p.para.text):]
		e := p.event(streaming.KindTextDelta)
		e.Message, e.Role, e.Text, e.Mode = p.para.id, streaming.RoleAssistant, text, streaming.Final
		p.para.text = append(p.para.text, rest...)
		p.runText.add(rest)
		return emit(e)
	case p.runText.trimmedIs(trimmed),
		p.para.id == "" && trimmed == strings.TrimSpace(string(p.lastPara)):
		// The whole run's text again (json-mode style), or the paragraph
		// that just ended.
		return nil
	case !p.runText.empty() && p.runText.prefixOf(text):
		return p.delta(text[p.runText.n:], emit)
	}
	if err := p.closePara(emit); err != nil {
		return err
	}
	if err := p.openPara(emit); err != nil {
		return err
	}
	e := p.event(streaming.KindTextDelta)
	e.Message, e.Role, e.Text, e.Mode = p.para.id, streaming.RoleAssistant, text, streaming.Final
	p.note(text)
	return emit(e)
}

// openPara starts an assistant message unless one is open.
func (p *parser) openPara(emit parsers.Emit) error {
	if p.para.id != "" {
		return nil
	}
	p.para.id = p.nextID("turn")
	p.para.text = p.para.text[:0]
	e := p.event(streaming.KindMessageStart)
	e.Message, e.Role = p.para.id, streaming.RoleAssistant
	return emit(e)
}

// closePara ends the open assistant message: a tool event, an error line,
// the result or the end of input ends a paragraph.
func (p *parser) closePara(emit parsers.Emit) error {
	if p.para.id == "" {
		return nil
	}
	id := p.para.id
	p.para.id = ""
	p.lastPara, p.para.text = p.para.text, p.lastPara[:0]
	e := p.event(streaming.KindMessageStop)
	e.Message, e.Role = id, streaming.RoleAssistant
	return emit(e)
}
