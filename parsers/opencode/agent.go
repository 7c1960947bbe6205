// Package opencode parses `opencode run --format json` (and `kilo run
// --format json`, its fork, which writes the same events) into streaming
// events.
//
// OpenCode mirrors its server's parts: a step per LLM call (step_start …
// step_finish), text and reasoning parts written once when complete, tool
// parts written once when the call has ended, and session errors. There is
// no init line and, before the newest versions' done line, no end marker:
// the run is over when the last step finished for a reason other than
// tool calls.
package opencode

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/tidwall/gjson"
)

// Agent is the OpenCode format for the registry.
var Agent = parsers.Agent{
	Name:   "opencode",
	Detect: detect,
	New:    func() parsers.Parser { return newParser() },
	Tools:  tools,
}

// detect scores a line. Every OpenCode line carries a camelCase sessionID
// beside its type, which no other agent writes at the top level; Gemini
// shares the tool_use and error type names but not sessionID or part.
func detect(l *parsers.Line) parsers.Confidence {
	typ := l.Str("type")
	if typ == "" {
		return parsers.No
	}
	hasSession := l.Get("sessionID").Type == gjson.String
	switch typ {
	case "step_start", "step_finish", "text", "reasoning", "tool_use":
		part := l.Get("part")
		if !part.IsObject() {
			return parsers.No
		}
		if hasSession {
			return parsers.Decisive
		}
		return parsers.Maybe
	case "error":
		if hasSession && l.Has("error") {
			return parsers.Decisive
		}
	case "done":
		if hasSession {
			return parsers.Decisive
		}
	}
	return parsers.No
}
