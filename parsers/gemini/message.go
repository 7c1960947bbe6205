package gemini

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// paragraph is the assistant message being streamed: the deltas of one
// model turn up to the next tool call, error or result. Its text is the
// session's alone.
type paragraph struct {
	id string
	// ended: an error line came after it. It takes no more deltas, but a
	// complete message may still repeat it (the session tells), so it
	// stays open until what follows it begins.
	ended bool
	prev  string // the paragraph its complete message may repeat, open until it stops
}

// msg names the paragraph's message for the kit.
func (pa *paragraph) msg() parsers.Msg {
	return parsers.Msg{ID: pa.id, Role: streaming.RoleAssistant}
}

func (p *parser) message(l *parsers.Line) error {
	text := contentText(l.Get("content"))
	switch l.Str("role") {
	case "user":
		return p.userMessage(text)
	case "assistant", "model":
		if l.Get("delta").Bool() {
			return p.delta(text)
		}
		return p.complete(text)
	}
	return p.out.Unknown("message", l.JSON)
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
func (p *parser) userMessage(text string) error {
	if err := p.closePara(); err != nil {
		return err
	}
	m := parsers.Msg{ID: p.ids.Next("prompt"), Role: streaming.RoleUser}
	return p.out.Blocks(m, text)
}

// delta is an assistant chunk, passed on as a delta: the session decides
// what a chunk that repeats the paragraph is.
func (p *parser) delta(text string) error {
	if text == "" {
		return nil
	}
	if p.para.ended {
		if err := p.closePara(); err != nil {
			return err
		}
	}
	if err := p.openPara(); err != nil {
		return err
	}
	return p.out.Text(p.para.msg(), streaming.KindTextDelta, 0, text, streaming.Delta)
}

// complete is an assistant message without "delta": Gemini CLI does not
// send these, but a fork or a later version may close a streamed turn with
// the whole text. It is the open paragraph's final (the session shows
// what it adds, or a rewrite as a revision); after an error line ended the
// paragraph, a message that may repeat it (the session tells); else a
// paragraph of its own: after a tool call, the same words are said again.
func (p *parser) complete(text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	switch {
	case p.para.id != "" && !p.para.ended:
		return p.out.Text(p.para.msg(), streaming.KindTextDelta, 0, text, streaming.Final)
	case p.para.id != "":
		of := p.para.id
		p.para = paragraph{}
		if err := p.openPara(); err != nil {
			return err
		}
		p.para.prev = of
		e := p.out.New(streaming.KindTextDelta)
		e.Message, e.Role, e.Text, e.Restates = p.para.id, streaming.RoleAssistant, text, of
		return p.out.Restate()
	}
	if err := p.openPara(); err != nil {
		return err
	}
	return p.out.Text(p.para.msg(), streaming.KindTextDelta, 0, text, streaming.Final)
}

// openPara starts an assistant message unless one is open.
func (p *parser) openPara() error {
	if p.para.id != "" {
		return nil
	}
	p.para = paragraph{id: p.ids.Next("turn")}
	return p.out.Start(p.para.msg())
}

// endPara ends the open paragraph for deltas (an error line): it stays
// open for a complete message that may repeat it.
func (p *parser) endPara() {
	if p.para.id != "" {
		p.para.ended = true
	}
}

// closePara stops the open assistant message (and the one it may
// repeat): a tool event, the result, a user message, a new run or the end
// of input ends a paragraph.
func (p *parser) closePara() error {
	para := p.para
	p.para = paragraph{}
	for _, id := range [...]string{para.id, para.prev} {
		if id == "" {
			continue
		}
		if err := p.out.Stop(parsers.Msg{ID: id, Role: streaming.RoleAssistant}); err != nil {
			return err
		}
	}
	return nil
}
