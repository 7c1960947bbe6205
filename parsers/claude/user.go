package claude

import (
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// user handles a `user` frame: tool results (string or array content,
// images summarised) and prompt echoes (replays, Amp's echo, injected
// turns), which become user messages. The top-level tool_use_result
// repeats the result (and any image's base64): it is never read.
func (p *parser) user(l *parsers.Line) error {
	parent := str(l.Get("parent_tool_use_id"))
	// A user frame ends the assistant message of its level (without
	// partial messages; with them, message_stop does).
	if m := p.current(parent); m != nil && !m.streamed {
		if err := p.closeMessage(m); err != nil {
			return err
		}
	}
	content := l.Path("message.content")
	if content.Type == gjson.String {
		return p.userText(parent, []string{content.Str})
	}
	var texts []string
	for _, b := range content.Array() {
		switch b.Get("type").String() {
		case "tool_result":
			if err := p.toolResult(b, parent); err != nil {
				return err
			}
		case "text":
			texts = append(texts, b.Get("text").String())
		case "image":
			texts = append(texts, imageOf(b))
		case "document":
			texts = append(texts, "‹document›")
		}
	}
	return p.userText(parent, texts)
}

// userText shows texts as a user message.
func (p *parser) userText(parent string, texts []string) error {
	shown := false
	for _, t := range texts {
		if strings.TrimSpace(t) != "" {
			shown = true
		}
	}
	if !shown {
		return nil
	}
	id := p.gen("user")
	p.ev = streaming.Event{Kind: streaming.KindMessageStart, Message: id, Role: streaming.RoleUser, Parent: parent}
	if err := p.send(&p.ev); err != nil {
		return err
	}
	for i, t := range texts {
		if t == "" {
			continue
		}
		p.ev = streaming.Event{Kind: streaming.KindTextDelta, Mode: streaming.Final, Message: id, Block: i,
			Text: t, Role: streaming.RoleUser, Parent: parent}
		if err := p.send(&p.ev); err != nil {
			return err
		}
	}
	p.ev = streaming.Event{Kind: streaming.KindMessageStop, Message: id, Role: streaming.RoleUser, Parent: parent}
	return p.send(&p.ev)
}

// toolResult ends a tool call from its tool_result block.
func (p *parser) toolResult(b gjson.Result, parent string) error {
	id := b.Get("tool_use_id").String()
	out := resultText(b.Get("content"))
	status := streaming.ToolOK
	if b.Get("is_error").Bool() {
		status = streaming.ToolError
		if declined(out) {
			status = streaming.ToolDeclined
		}
	}
	// The result of a Task/Agent call ends its subagent's message.
	if id != "" {
		if err := p.closeLevel(id); err != nil {
			return err
		}
	}
	return p.endTool(id, status, out, parent)
}

// declined reports whether an error result says the call was refused
// (permission denied, or the user rejected it).
func declined(out string) bool {
	o := strings.ToLower(out)
	return strings.Contains(o, "doesn't want to proceed") ||
		strings.Contains(o, "tool use was rejected") ||
		(strings.Contains(o, "permission") && (strings.Contains(o, "denied") || strings.Contains(o, "haven't granted")))
}

// resultText is a tool result's content as text: a string, or an array
// of text blocks and images (summarised, never their base64).
func resultText(c gjson.Result) string {
	switch {
	case c.Type == gjson.String:
		return c.Str
	case c.IsArray():
		var parts []string
		for _, item := range c.Array() {
			parts = append(parts, itemText(item))
		}
		return strings.Join(parts, "\n")
	case !c.Exists() || c.Type == gjson.Null:
		return ""
	}
	return summary(c)
}

// itemText is one item of an array content as text.
func itemText(item gjson.Result) string {
	switch item.Get("type").String() {
	case "text":
		return item.Get("text").String()
	case "image":
		return imageOf(item)
	case "tool_reference":
		return "‹tool " + item.Get("tool_name").String() + "›"
	}
	return summary(item)
}

// imageOf summarises an image block: ‹image/png 412 KB›.
func imageOf(b gjson.Result) string {
	src := b.Get("source")
	if src.Get("type").String() == "base64" || src.Get("data").Exists() {
		return parsers.ImageSummary(src.Get("media_type").String(), len(src.Get("data").Str))
	}
	if u := src.Get("url").String(); u != "" {
		return "‹image " + parsers.Clip(u, 80) + "›"
	}
	return "‹image›"
}

// summary shows an unrecognised content item briefly.
func summary(v gjson.Result) string {
	if v.IsObject() {
		if t := v.Get("text"); t.Type == gjson.String {
			return t.Str
		}
		if typ := v.Get("type").String(); typ != "" {
			return "‹" + typ + "›"
		}
	}
	return parsers.Clip(v.Raw, 200)
}

// serverToolResult reads the content of a *_tool_result block (web
// search results, errors) into a status and an output text.
func serverToolResult(c gjson.Result) (streaming.ToolStatus, string) {
	if c.IsObject() {
		if code := c.Get("error_code"); code.Exists() {
			return streaming.ToolError, code.String()
		}
	}
	if !c.IsArray() {
		return streaming.ToolOK, resultText(c)
	}
	var lines []string
	for _, item := range c.Array() {
		title, url := item.Get("title").String(), item.Get("url").String()
		switch {
		case title != "" || url != "":
			lines = append(lines, strings.TrimSpace(title+" "+url))
		default:
			lines = append(lines, itemText(item))
		}
	}
	return streaming.ToolOK, strings.Join(lines, "\n")
}
