package claude

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Content blocks: the stream's content_block_start, its assistant frames
// and the user frames carrying tool results, and the transcripts' records
// all hold the same Anthropic content blocks. They are read here, once:
// readBlock finds a block's fields, kind says what it is, and the helpers
// below give its text, its tool call's title and its result.

// partKind is what a content block is.
type partKind uint8

const (
	partOther        partKind = iota
	partText                  // text
	partThinking              // thinking, redacted_thinking
	partToolUse               // tool_use, server_tool_use
	partToolResult            // tool_result (in user messages)
	partServerResult          // web_search_tool_result and the other *_tool_result
	partImage                 // image
	partDocument              // document
)

// kindOf is what a block of type typ is.
func kindOf(typ string) partKind {
	switch typ {
	case "text":
		return partText
	case "thinking", "redacted_thinking":
		return partThinking
	case "tool_use", "server_tool_use":
		return partToolUse
	case "tool_result":
		return partToolResult
	case "image":
		return partImage
	case "document":
		return partDocument
	}
	if strings.HasSuffix(typ, "_tool_result") {
		return partServerResult
	}
	return partOther
}

// thinkingText is a thinking block's text: a redacted one says so.
func (b *block) thinkingText(typ string) string {
	if typ == "redacted_thinking" {
		return redactedThinking
	}
	return b.str(b.thinking)
}

// callTitle is the title of a tool call: a TodoWrite's count of todos, or
// the human description Claude gives some calls (see toolTitle).
func callTitle(l *parsers.Line, name, input string) string {
	if tt := todoTitle(name, input); tt != "" {
		return tt
	}
	return toolTitle(l, input)
}

// result reads a tool_result block: the call's wire id, its status and
// its output.
func (b *block) result() (id string, status streaming.ToolStatus, out string) {
	out = resultText(b.l, b.content)
	status = streaming.ToolOK
	if parsers.Value(b.isError).Bool() {
		status = streaming.ToolError
		if declined(out) {
			status = streaming.ToolDeclined
		}
	}
	return b.str(b.toolUseID), status, out
}

// partText is the text a user message shows for a text, image or
// document block ("" for any other).
func (b *block) partText(k partKind, raw string) string {
	switch k {
	case partText:
		return b.str(b.text)
	case partImage:
		return imageOf(parsers.Value(raw))
	case partDocument:
		return "‹document›"
	}
	return ""
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
