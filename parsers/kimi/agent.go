// Package kimi parses Kimi Code CLI's `kimi --print --output-format
// stream-json` (docs/formats/kimi.md) into streaming events.
//
// Kimi writes one whole message a line, keyed by its role: an assistant
// message per step (thinking, text, tool calls with their arguments as a
// JSON string), then a line per tool result. It writes no init, no
// session id, no figures and no result line: the end of input ends the
// run.
package kimi

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/internal/flat"
	"github.com/tidwall/gjson"
)

// Agent is the Kimi format for the registry.
var Agent = parsers.Agent{
	Name:   "kimi",
	Detect: detect,
	New:    func() parsers.Parser { return flat.New(format) },
	Tools:  tools,
}

// detect scores a line: a message with a role and no type (Kimi 2.x's
// bookkeeping lines have role meta and a dotted type); an assistant's
// with tool calls or parts of Kimi's kinds, a tool result with its
// tool_call_id, is Kimi's alone.
func detect(l *parsers.Line) parsers.Confidence {
	role := l.Str("role")
	if role == "meta" {
		if t := l.Str("type"); strings.HasPrefix(t, "system.") || strings.HasPrefix(t, "session.") {
			return parsers.Decisive
		}
		return parsers.No
	}
	if l.Has("type") {
		return parsers.No
	}
	switch role {
	case "assistant":
		if l.Get("tool_calls").IsArray() {
			return parsers.Decisive
		}
		c := l.Get("content")
		if t := c.Get("0.type").String(); t == "think" || t == "text" {
			return parsers.Decisive
		}
		if c.Type == gjson.String {
			return parsers.Maybe
		}
	case "tool":
		if l.Has("tool_call_id") && l.Has("content") {
			return parsers.Decisive
		}
	}
	return parsers.No
}

// tools is what Kimi's tool inputs mean: Shell's (Bash's) command,
// ReadFile's and WriteFile's path, Grep's pattern.
var tools = parsers.Tools{
	Subject: []string{"command", "path", "file_path", "pattern", "url", "query"},
}
