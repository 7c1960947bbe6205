package pi

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// messageStart opens a user or assistant message. pi's messages have no
// ids: the parser names them. What a message_start already holds (a
// request that failed before streaming starts final) is sent as finals.
func (p *parser) messageStart(m gjson.Result) error {
	p.out.Time = parsers.TimeOf(m.Get("timestamp"))
	switch m.Get("role").Str {
	case "assistant":
		if err := p.closeMsg(); err != nil {
			return err
		}
		p.msg = p.ids.Next("m")
		if err := p.open(p.msg, streaming.RoleAssistant); err != nil {
			return err
		}
		return p.blocks(p.msg, m.Get("content"))
	case "user":
		p.user = p.ids.Next("u")
		if err := p.open(p.user, streaming.RoleUser); err != nil {
			return err
		}
		return p.userText(p.user, m.Get("content"))
	}
	return nil
}

// messageEnd is a message's final, authoritative form: the assistant's
// blocks (finals of what streamed) and tool calls, its usage and stop
// reason; the user's text; a tool result, when its execution did not end
// the call; and the coding agent's own messages.
func (p *parser) messageEnd(m gjson.Result) error {
	p.out.Time = parsers.TimeOf(m.Get("timestamp"))
	switch m.Get("role").Str {
	case "assistant":
		return p.assistantEnd(m)
	case "user":
		id := p.user
		p.user = ""
		if id == "" {
			id = p.ids.Next("u")
			if err := p.open(id, streaming.RoleUser); err != nil {
				return err
			}
		}
		if err := p.userText(id, m.Get("content")); err != nil {
			return err
		}
		return p.stop(id, streaming.RoleUser)
	case "toolResult":
		if p.execs {
			return nil // ended by tool_execution_end
		}
		return p.endTool(m.Get("toolCallId").Str, m.Get("toolName").Str, m, m.Get("isError").Bool())
	case "bashExecution":
		return p.bashExecution(m)
	case "compactionSummary":
		return p.out.Status("context compacted", streaming.LevelInfo)
	case "branchSummary":
		return p.out.Status("branch summary: "+m.Get("summary").Str, streaming.LevelInfo)
	case "custom":
		if !m.Get("display").Bool() {
			return nil
		}
		return p.out.Status(contentText(m.Get("content")), streaming.LevelInfo)
	}
	return nil
}

// assistantEnd closes the assistant message, whose final blocks and tool
// calls it sends, and notes what the run's outcome will be.
func (p *parser) assistantEnd(m gjson.Result) error {
	id := p.msg
	if id == "" {
		id = p.ids.Next("m") // a message_end without its start: its content opens it
	}
	if err := p.blocks(id, m.Get("content")); err != nil {
		return err
	}
	var err error
	m.Get("content").ForEach(func(_, b gjson.Result) bool {
		if b.Get("type").Str == "toolCall" {
			err = p.toolStart(b.Get("id").Str, b.Get("name").Str, b.Get("arguments"))
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	p.msg = id
	if err := p.closeMsg(); err != nil {
		return err
	}
	r := &p.run
	r.answered = true
	r.stop, r.errMsg = strings.Clone(m.Get("stopReason").Str), strings.Clone(m.Get("errorMessage").Str)
	r.provider, r.model = strings.Clone(m.Get("provider").Str), strings.Clone(m.Get("model").Str)
	if rm := m.Get("responseModel").Str; rm != "" {
		r.model = strings.Clone(rm)
	}
	if r.stop == "length" {
		if err := p.out.Status("the answer stopped at the model's output limit", streaming.LevelWarning); err != nil {
			return err
		}
	}
	return p.usage(m.Get("usage"))
}

// usage adds one model call's tokens and cost to the run's and sends the
// run's so far (a usage event is the run's usage: the renderers show the
// latest). Each assistant message is one call; pi's turn_end and
// agent_end repeat the same messages and are not counted.
func (p *parser) usage(u gjson.Result) error {
	if !u.IsObject() {
		return nil
	}
	call := streaming.Usage{
		InputTokens:      u.Get("input").Int(),
		OutputTokens:     u.Get("output").Int(),
		CacheReadTokens:  u.Get("cacheRead").Int(),
		CacheWriteTokens: u.Get("cacheWrite").Int(),
	}
	if c := u.Get("cost.total"); c.Type == gjson.Number && c.Num > 0 {
		call.CostUSD, call.HasCost = c.Num, true // pi's estimate from its price table
	}
	if call == (streaming.Usage{}) {
		return nil // a failed call, or a provider that reports none
	}
	parsers.AddUsage(&p.run.usage, call)
	p.run.hasUsage = true
	e := p.out.New(streaming.KindUsage)
	e.Usage = p.run.total()
	return p.out.Push()
}

// messageUpdate is one streaming event of the assistant message: text and
// thinking deltas per content index, each block's whole text at its end,
// and a tool call once its arguments are complete. Older builds also put
// the whole partial message on every line: it is not read.
func (p *parser) messageUpdate(ev gjson.Result) error {
	if p.msg == "" {
		p.msg = p.ids.Next("m") // joined mid-message: the content opens it
	}
	idx := int(ev.Get("contentIndex").Int())
	switch ev.Get("type").Str {
	case "text_delta":
		return p.text(streaming.KindTextDelta, idx, ev.Get("delta").Str, streaming.Delta)
	case "thinking_delta":
		return p.text(streaming.KindThinkingDelta, idx, ev.Get("delta").Str, streaming.Delta)
	case "text_end":
		return p.text(streaming.KindTextDelta, idx, ev.Get("content").Str, streaming.Final)
	case "thinking_end":
		return p.text(streaming.KindThinkingDelta, idx, ev.Get("content").Str, streaming.Final)
	case "toolcall_end":
		tc := ev.Get("toolCall")
		return p.toolStart(tc.Get("id").Str, tc.Get("name").Str, tc.Get("arguments"))
	}
	// start, *_start, toolcall_delta (the arguments' JSON so far), done and
	// error (message_end follows with the whole message).
	return nil
}

// blocks sends the text and thinking blocks of a whole message as finals,
// each under its index in the message's content.
func (p *parser) blocks(id string, content gjson.Result) error {
	i := -1
	var err error
	content.ForEach(func(_, b gjson.Result) bool {
		i++
		switch b.Get("type").Str {
		case "text":
			err = p.textIn(id, streaming.KindTextDelta, i, b.Get("text").Str, streaming.Final)
		case "thinking":
			if !b.Get("redacted").Bool() {
				err = p.textIn(id, streaming.KindThinkingDelta, i, b.Get("thinking").Str, streaming.Final)
			}
		}
		return err == nil
	})
	return err
}

// text sends text of the assistant message being written.
func (p *parser) text(kind streaming.Kind, block int, text string, mode streaming.Mode) error {
	return p.textIn(p.msg, kind, block, text, mode)
}

func (p *parser) textIn(id string, kind streaming.Kind, block int, text string, mode streaming.Mode) error {
	return p.out.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, kind, block, text, mode)
}

// userText sends a user message's whole text: a string, or text and image
// blocks.
func (p *parser) userText(id string, content gjson.Result) error {
	return p.out.Text(parsers.Msg{ID: id, Role: streaming.RoleUser}, streaming.KindTextDelta, 0, contentText(content), streaming.Final)
}

// contentText is the text of a content value: a string, or blocks whose
// text parts are joined and whose images are summarised.
func contentText(content gjson.Result) string {
	if content.Type == gjson.String {
		return content.Str
	}
	var b strings.Builder
	content.ForEach(func(_, c gjson.Result) bool {
		var s string
		switch c.Get("type").Str {
		case "text":
			s = c.Get("text").Str
		case "image":
			s = parsers.ImageSummary(c.Get("mimeType").Str, len(c.Get("data").Str))
		default:
			return true
		}
		if b.Len() > 0 && s != "" {
			b.WriteByte('\n')
		}
		b.WriteString(s)
		return true
	})
	return b.String()
}

// open sends message.start.
func (p *parser) open(id, role string) error { return p.out.Start(parsers.Msg{ID: id, Role: role}) }

// stop sends message.stop.
func (p *parser) stop(id, role string) error { return p.out.Stop(parsers.Msg{ID: id, Role: role}) }

// closeMsg stops the assistant message being written, if any.
func (p *parser) closeMsg() error {
	if p.msg == "" {
		return nil
	}
	id := p.msg
	p.msg = ""
	return p.stop(id, streaming.RoleAssistant)
}
