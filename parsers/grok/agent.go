// Package grok parses Grok CLI's `grok -p … --output-format
// streaming-json` (docs/formats/grok.md) into streaming events.
//
// Grok writes one object a line: each token of its reasoning (thought)
// and of its answer (text) on a line of its own, a usage line at the end
// of each model call, tool calls and their updates in ACP's shape, and an
// end line with the run's figures. The answer is the text since the last
// tool: the end line does not repeat it.
package grok

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/internal/flat"
	"github.com/tidwall/gjson"
)

// Agent is the Grok CLI format for the registry.
var Agent = parsers.Agent{
	Name:   "grok",
	Detect: detect,
	New:    func() parsers.Parser { return flat.New(format) },
	Tools:  tools,
}

// detect scores a line: a token line is {type, data} and nothing else;
// usage has Grok's signature; tool lines are ACP's update at the top
// level (ACP's own are inside a JSON-RPC notification); end has a
// stopReason and a requestId.
func detect(l *parsers.Line) parsers.Confidence {
	switch l.Str("type") {
	case "thought", "text":
		if l.Get("data").Type == gjson.String && !l.Has("sessionID") && !l.Has("part") && !l.Has("timestamp") {
			return parsers.Decisive
		}
	case "usage":
		if l.Has("signature") && l.Get("usage").IsObject() {
			return parsers.Decisive
		}
	case "tool_call", "tool_call_update":
		if l.Has("toolCallId") {
			return parsers.Decisive
		}
	case "available_commands_update":
		if l.Has("availableCommands") {
			return parsers.Decisive
		}
	case "end":
		if l.Has("stopReason") && (l.Has("requestId") || l.Has("sessionId")) {
			return parsers.Decisive
		}
	}
	return parsers.No
}

// tools is what Grok's tool inputs mean: run_terminal_command's command,
// read_file's target_file, and the like.
var tools = parsers.Tools{
	Subject: []string{"command", "target_file", "file_path", "path", "pattern", "query", "url"},
}
