// Package goose parses Goose's `goose run --output-format stream-json`
// (docs/formats/goose.md) into streaming events.
//
// Goose writes one object a line: a message per agent event (streamed
// text arrives as many messages sharing one id: one message, not many),
// MCP notifications, errors, and a complete line that is always last.
// Tool calls are toolRequest items of an assistant message; their
// results, toolResponse items of a user message.
package goose

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/internal/flat"
	"github.com/tidwall/gjson"
)

// Agent is the Goose format for the registry.
var Agent = parsers.Agent{
	Name:   "goose",
	Detect: detect,
	New:    func() parsers.Parser { return flat.New(format) },
	Tools:  tools,
}

// detect scores a line: a message line holds goose's Message object
// (role, content list); complete carries total_tokens; a notification
// names its extension. Its error line, {type, error}, is Maybe.
func detect(l *parsers.Line) parsers.Confidence {
	switch l.Str("type") {
	case "message":
		if m := l.Get("message"); m.IsObject() && m.Get("content").IsArray() && m.Get("role").Type == gjson.String {
			return parsers.Decisive
		}
	case "complete":
		if l.Has("total_tokens") {
			return parsers.Decisive
		}
	case "notification":
		if l.Has("extension_id") {
			return parsers.Decisive
		}
	case "error":
		if l.Get("error").Type == gjson.String && !l.Has("message") {
			return parsers.Maybe
		}
	}
	return parsers.No
}

// tools is what goose's tool inputs mean: developer__shell's command,
// the text editor's path.
var tools = parsers.Tools{
	Subject: []string{"command", "path", "pattern", "query", "url"},
}
