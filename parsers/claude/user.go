package claude

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
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
	contentRaw := l.FieldRaw(l.Get("message").Raw, "content")
	if contentRaw != "" && contentRaw[0] == '"' {
		return p.userText(parent, []string{textOf(l, contentRaw)})
	}
	content := parsers.Value(contentRaw)
	var texts []string
	for e := elements(l, content); e.Next(); {
		b := readBlock(l, e.Raw)
		switch b.str(b.typ) {
		case "tool_result":
			if err := p.toolResult(&b, parent); err != nil {
				return err
			}
		case "text":
			texts = append(texts, b.str(b.text))
		case "image":
			texts = append(texts, imageOf(e.Value()))
		case "document":
			texts = append(texts, "‹document›")
		}
	}
	return p.userText(parent, texts)
}

// elements iterates over what gjson's Array gives for v (a part of l):
// the elements of an array, nothing for null or a missing value, v itself
// otherwise.
func elements(l *parsers.Line, v gjson.Result) parsers.Elements {
	switch {
	case v.IsArray():
		return fieldsLine(l).ElementsOf(v.Raw)
	case v.Type == gjson.Null:
		return parsers.Elements{}
	}
	return parsers.ElementsOf("[" + v.Raw + "]")
}

// block is the fields of a content block the parser reads, found in one
// pass over it (the first of each name, as gjson's Get finds), as JSON
// text; they are decoded when used.
type block struct {
	typ, text, thinking, id, name, input, content, toolUseID, isError, status string

	l *parsers.Line // the line they are in (nil: none)
}

// noLine stands for the line when there is none: its iterators read the
// text without a table of long strings (it is only read).
var noLine parsers.Line

// fieldsLine is l, or noLine.
func fieldsLine(l *parsers.Line) *parsers.Line {
	if l == nil {
		return &noLine
	}
	return l
}

// readBlock finds the fields of a content block's JSON text (a part of
// l, which may be nil).
func readBlock(l *parsers.Line, raw string) block {
	b := block{l: l}
	for f := fieldsLine(l).FieldsOf(raw); f.Next(); {
		var dst *string
		switch f.Key {
		case "type":
			dst = &b.typ
		case "text":
			dst = &b.text
		case "thinking":
			dst = &b.thinking
		case "id":
			dst = &b.id
		case "name":
			dst = &b.name
		case "input":
			dst = &b.input
		case "content":
			dst = &b.content
		case "tool_use_id":
			dst = &b.toolUseID
		case "is_error":
			dst = &b.isError
		case "status":
			dst = &b.status
		default:
			continue
		}
		if *dst == "" {
			*dst = f.Raw
		}
	}
	return b
}

// str is a field's value as gjson's String gives it (see textOf).
func (b *block) str(raw string) string {
	return textOf(b.l, raw)
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
	// One copy of a subagent's parent for the message's events (the
	// decoder would copy it into each).
	m := parsers.Msg{ID: p.ids.Next("user"), Role: streaming.RoleUser, Parent: strings.Clone(parent)}
	if err := p.out.Start(m); err != nil {
		return err
	}
	for i, t := range texts {
		if err := p.out.Text(m, streaming.KindTextDelta, i, t, streaming.Final); err != nil {
			return err
		}
	}
	return p.out.Stop(m)
}

// toolResult ends a tool call from its tool_result block.
func (p *parser) toolResult(b *block, parent string) error {
	id := b.str(b.toolUseID)
	out := resultText(p.line, b.content)
	status := streaming.ToolOK
	if parsers.Value(b.isError).Bool() {
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

// resultText is a tool result's content (its JSON text, a part of l) as
// text: a string, or an array of text blocks and images (summarised,
// never their base64).
func resultText(l *parsers.Line, raw string) string {
	switch {
	case raw == "" || raw == "null":
		return ""
	case raw[0] == '"':
		return textOf(l, raw) // the common case
	case raw[0] == '[':
		var parts []string
		for e := fieldsLine(l).ElementsOf(raw); e.Next(); {
			if b := readBlock(l, e.Raw); b.str(b.typ) == "text" {
				parts = append(parts, b.str(b.text)) // the common case, in one pass
				continue
			}
			parts = append(parts, itemText(e.Value()))
		}
		if len(parts) == 1 {
			return parts[0]
		}
		return strings.Join(parts, "\n")
	}
	return summary(parsers.Value(raw))
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
func serverToolResult(l *parsers.Line, c gjson.Result) (streaming.ToolStatus, string) {
	if c.IsObject() {
		if code := c.Get("error_code"); code.Exists() {
			return streaming.ToolError, code.String()
		}
	}
	if !c.IsArray() {
		return streaming.ToolOK, resultText(l, c.Raw)
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
