// Package gemini parses Gemini CLI headless output into streaming events:
// `gemini --output-format stream-json` (init, message, tool_use,
// tool_result, error, result) and the single object of
// `--output-format json` ({session_id, response, stats, error, warnings})
// when it is written on one line.
//
// Gemini sends assistant text only as deltas and never a complete message,
// so the parser groups the deltas into paragraphs: a tool call, a tool
// result, an error line or the result ends the current paragraph, and each
// paragraph is one assistant message. The text after the last tool is the
// final answer.
package gemini

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/tidwall/gjson"
)

// Agent is the Gemini CLI format for the registry.
var Agent = parsers.Agent{
	Name:   "gemini",
	Detect: readers.Detect,
	New:    readers.New,
	Tools:  tools,
}

// readers are the two families of input the gemini agent reads: the
// headless stream (parser) and Gemini CLI's saved chats (session,
// session.go).
var readers = parsers.Readers{
	{Detect: detect, New: func() parsers.Parser { return newParser() }},
	{Detect: detectSession, New: func() parsers.Parser { return newSession() }},
}

// detect scores a line. Gemini's lines are flat objects with snake_case
// fields; OpenCode shares the tool_use/error type names but always carries
// sessionID and part (or error objects), Claude-shaped agents put subtype
// on their result, Codex's error has no severity.
func detect(l *parsers.Line) parsers.Confidence {
	typ := l.Get("type")
	if !typ.Exists() {
		return detectJSONMode(l)
	}
	if l.Has("sessionID") || l.Has("part") {
		return parsers.No
	}
	switch typ.Str {
	case "init":
		if l.Has("session_id") || l.Has("model") {
			return parsers.Decisive
		}
		return parsers.Maybe
	case "message":
		role := l.Str("role")
		if (role == "user" || role == "assistant") && l.Get("content").Type == gjson.String {
			return parsers.Decisive
		}
	case "tool_use":
		if l.Has("tool_id") && l.Has("tool_name") {
			return parsers.Decisive
		}
	case "tool_result":
		if l.Has("tool_id") && l.Has("status") {
			return parsers.Decisive
		}
	case "error":
		if l.Has("severity") {
			return parsers.Maybe
		}
	case "result":
		if l.Get("status").Type == gjson.String && !l.Has("subtype") && !l.Has("is_error") {
			return parsers.Maybe
		}
	}
	return parsers.No
}

// detectJSONMode recognises the single object of --output-format json
// (compacted onto one line, e.g. by jq -c).
func detectJSONMode(l *parsers.Line) parsers.Confidence {
	if l.Get("response").Type == gjson.String && (l.Get("stats").IsObject() || l.Has("session_id")) {
		return parsers.Decisive
	}
	if l.Has("session_id") && l.Get("error").IsObject() && !l.Has("id") {
		return parsers.Maybe
	}
	return parsers.No
}
