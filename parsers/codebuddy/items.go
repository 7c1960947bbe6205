package codebuddy

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// userMessage is the prompt. CodeBuddy wraps it in context: system
// reminders (memory, the task list, CODEBUDDY.md, several KB), the ask
// itself in <user_query>; a compaction checkpoint is a user message that
// starts <cb_summary>.
func (p *parser) userMessage(l *parsers.Line) error {
	if err := p.closeOpen(); err != nil {
		return err
	}
	text := userText(l.Get("content"))
	if strings.HasPrefix(text, "<cb_summary") {
		return p.out.Status("context compacted", streaming.LevelInfo)
	}
	id := "user:" + l.Str("id")
	if id == "user:" {
		id = p.ids.Next("user:")
	}
	m := parsers.Msg{ID: id, Role: streaming.RoleUser}
	if err := p.out.Start(m); err != nil {
		return err
	}
	if err := p.out.Text(m, streaming.KindTextDelta, 0, text, streaming.Final); err != nil {
		return err
	}
	return p.out.Stop(m)
}

// userText is what the user asked: the last <user_query>, or without one
// the message's text with its <system-reminder> blocks removed.
func userText(content gjson.Result) string {
	var b strings.Builder
	content.ForEach(func(_, c gjson.Result) bool {
		var s string
		switch c.Get("type").String() {
		case "input_text", "text":
			s = c.Get("text").String()
		case "image_blob_ref", "input_image", "image":
			s = "‹image›"
		default:
			return true
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
		return true
	})
	all := b.String()
	if content.Type == gjson.String {
		all = content.Str
	}
	if i := strings.LastIndex(all, "<user_query>"); i >= 0 {
		q := all[i+len("<user_query>"):]
		if j := strings.Index(q, "</user_query>"); j >= 0 {
			q = q[:j]
		}
		return strings.TrimSpace(q)
	}
	return strings.TrimSpace(dropReminders(all))
}

// dropReminders removes the <system-reminder>…</system-reminder> blocks
// of a text.
func dropReminders(s string) string {
	const open, end = "<system-reminder", "</system-reminder>"
	for {
		i := strings.Index(s, open)
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], end)
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+j+len(end):]
	}
}

// messageID is the assistant message an item belongs to: its
// providerData.messageId (a model call's reasoning, answer and calls
// share it), else the item's own id.
func (p *parser) messageID(l *parsers.Line) string {
	if id := l.Get("providerData").Get("messageId").String(); id != "" {
		return id
	}
	if id := l.Str("id"); id != "" {
		return id
	}
	return p.ids.Next("msg")
}

// use makes id the open assistant message, stopping the one before: an
// item of another model call begins a new message. Content opens it.
func (p *parser) use(id string) error {
	if id == p.open {
		return nil
	}
	if err := p.closeOpen(); err != nil {
		return err
	}
	p.open = strings.Clone(id)
	return nil
}

// closeOpen stops the open assistant message.
func (p *parser) closeOpen() error {
	if p.open == "" {
		return nil
	}
	id := p.open
	p.open = ""
	return p.out.Stop(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
}

// reasoning is the model's thinking: its text is in rawContent
// (reasoning_text), not in content; summary_text parts stand in when
// there is no raw text. It is a block of its model call's message.
func (p *parser) reasoning(l *parsers.Line) error {
	text := partsText(l.Get("rawContent"), "reasoning_text", "text")
	if text == "" {
		text = partsText(l.Get("summary"), "summary_text", "text")
	}
	if text == "" {
		text = partsText(l.Get("content"), "reasoning_text", "summary_text", "text")
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	id := p.messageID(l)
	if err := p.use(id); err != nil {
		return err
	}
	e := p.out.New(streaming.KindThinkingDelta)
	e.Message, e.Role, e.Part, e.Text = id, streaming.RoleAssistant, p.part(l, 0), text
	return p.out.Final()
}

// assistantMessage is the answer: its output_text (or refusal) parts, each
// a block of its model call's message, and the call's usage.
func (p *parser) assistantMessage(l *parsers.Line) error {
	id := p.messageID(l)
	if err := p.use(id); err != nil {
		return err
	}
	i := -1
	var err error
	l.Get("content").ForEach(func(_, c gjson.Result) bool {
		i++
		var text string
		switch c.Get("type").String() {
		case "output_text", "text":
			text = c.Get("text").String()
		case "refusal":
			text = c.Get("refusal").String()
		}
		if strings.TrimSpace(text) == "" {
			return true
		}
		e := p.out.New(streaming.KindTextDelta)
		e.Message, e.Role, e.Part, e.Text = id, streaming.RoleAssistant, p.part(l, i), text
		err = p.out.Final()
		return err == nil
	})
	if err != nil {
		return err
	}
	return p.usage(l.Get("providerData").Get("usage"))
}

// part names a block by its item and its place in the item.
func (p *parser) part(l *parsers.Line, i int) string {
	id := l.Str("id")
	if id == "" {
		id = p.ids.Next("item")
	}
	return id + "/" + strconv.Itoa(i)
}

// usage adds one model request's tokens, in the Responses SDK's names
// (the input counts cached tokens, which are taken out of it), to the
// run's, and sends the run's so far: the renderers show the latest usage
// event as the run's.
func (p *parser) usage(u gjson.Result) error {
	if !u.IsObject() {
		return nil
	}
	cached := u.Get("inputTokensDetails.0.cached_tokens").Int() + u.Get("inputTokensDetails.cached_tokens").Int()
	in, out := max(u.Get("inputTokens").Int()-cached, 0), u.Get("outputTokens").Int()
	if in == 0 && out == 0 && cached == 0 {
		return nil
	}
	parsers.AddUsage(&p.used, streaming.Usage{InputTokens: in, OutputTokens: out, CacheReadTokens: cached})
	e := p.out.New(streaming.KindUsage)
	used := p.used
	e.Usage = &used
	return p.out.Push()
}

// functionCall starts a tool call. Its arguments are a JSON string (an
// object in some writers).
func (p *parser) functionCall(l *parsers.Line) error {
	e := p.out.New(streaming.KindToolStart)
	e.ID, e.Name = p.callID(l), parsers.CleanToolName(l.Str("name"))
	args := l.Get("arguments")
	switch {
	case args.Type == gjson.String && jsonscan.ValidString(args.Str):
		e.Input = args.Str
	default:
		e.Input = parsers.JSONText(args)
	}
	return p.out.Push()
}

// functionResult ends a tool call: its output, failed when its status
// says so.
func (p *parser) functionResult(l *parsers.Line) error {
	e := p.out.New(streaming.KindToolEnd)
	e.ID, e.Name = p.callID(l), parsers.CleanToolName(l.Str("name"))
	out := l.Get("output")
	switch {
	case out.Type == gjson.String:
		e.Output = out.Str
	case out.IsArray():
		e.Output = partsText(out, "input_text", "output_text", "text")
	case out.IsObject() && out.Get("text").Exists():
		e.Output = out.Get("text").String()
	case out.Exists():
		e.Output = out.Raw
	}
	switch strings.ToLower(l.Str("status")) {
	case "failed", "error":
		e.Status = streaming.ToolError
	case "incomplete", "cancelled", "canceled":
		e.Status = streaming.ToolIncomplete
	default:
		e.Status = streaming.ToolOK
	}
	return p.out.Push()
}

// callID pairs a call with its result.
func (p *parser) callID(l *parsers.Line) string {
	if id := l.Str("callId"); id != "" {
		return id
	}
	if id := l.Str("id"); id != "" {
		return id
	}
	return p.ids.Next("call")
}

// partsText joins the text of the parts of the given types.
func partsText(parts gjson.Result, types ...string) string {
	var b strings.Builder
	parts.ForEach(func(_, c gjson.Result) bool {
		t := c.Get("type").String()
		for _, want := range types {
			if t == want {
				if b.Len() > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(c.Get("text").String())
				break
			}
		}
		return true
	})
	return b.String()
}
