// Package codebuddy parses Tencent CodeBuddy Code's headless output
// (docs/formats/codebuddy.md) into streaming events.
//
// `codebuddy -p --output-format json` prints, when the run ends, the whole
// transcript as one (pretty-printed) JSON array: the OpenAI-Responses-style
// items of its session file (user and assistant `message`s, `reasoning`,
// `function_call` and `function_call_result`, bookkeeping records) and a
// final Claude-style `result`. The input reader hands the array's elements
// on one by one; each is read here as a line. `--output-format
// stream-json` writes Claude Code's shapes (CodeBuddy is a Claude Code
// fork): those lines are handed to the Claude parser, and CodeBuddy's own
// `log` lines become status lines.
package codebuddy

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/claude"
	"github.com/tidwall/gjson"
)

// Agent is the CodeBuddy Code format for the registry.
var Agent = parsers.Agent{
	Name:   "codebuddy",
	Detect: readers.Detect,
	New:    readers.New,
	// CodeBuddy is a Claude Code fork: its tools are Claude Code's (Bash,
	// Read, Edit, Write, …, as in the capture's reminders and calls).
	Tools: claude.Agent.Tools,
}

// readers are the two families of CodeBuddy's output: the json array's
// items (parser; and CodeBuddy's own log lines), and stream-json, Claude
// Code's shapes, which the Claude parser reads.
var readers = parsers.Readers{
	{Detect: detect, New: func() parsers.Parser { return newParser() }},
	{Detect: detectStream, New: claude.Agent.New},
}

// detect scores a line. A Responses-style item with CodeBuddy's envelope
// (providerData, a camelCase sessionId, rawContent, callId) is no other
// agent's: Gemini's message has string content, OpenCode's reasoning a
// part, Codex wraps its items. The result is Claude's shape: it is
// decisive where Claude's detector is (num_turns, total_cost_usd), which
// comes first in the registry and so keeps Claude's streams, and on
// CodeBuddy's own __timestamp; decisive, it keeps a CodeBuddy array's
// last element from switching the stream to Claude (and so do the
// bookkeeping records and the stream-json shapes, below). A log line
// only supports a stream already read here, or begins one.
func detect(l *parsers.Line) parsers.Confidence {
	switch l.Str("type") {
	case "message":
		if l.Get("role").Type == gjson.String && l.Get("content").IsArray() && (l.Has("providerData") || l.Has("sessionId")) {
			return parsers.Decisive
		}
	case "reasoning":
		if !l.Has("part") && (l.Has("rawContent") || l.Has("providerData")) {
			return parsers.Decisive
		}
	case "function_call", "function_call_result":
		if l.Has("callId") {
			return parsers.Decisive
		}
	case "result":
		if l.Has("stats") {
			return parsers.No // Qwen's and Gemini's results
		}
		if l.Has("__timestamp") || l.Has("num_turns") || l.Has("total_cost_usd") {
			return parsers.Decisive
		}
	case "file-history-snapshot", "ai-title", "summary", "turn-metrics":
		// Session-file bookkeeping. Claude Code's transcripts have records
		// of these names, decisive there when they carry its keys: so they
		// are here, which keeps a CodeBuddy array from switching to Claude
		// at its ai-title, while Claude, first in the registry, keeps its
		// own transcripts.
		if l.Has("sessionId") || l.Has("messageId") || l.Has("uuid") || l.Has("leafUuid") {
			return parsers.Decisive
		}
		return parsers.Maybe
	case "log":
		if l.Get("log").IsObject() {
			return parsers.Maybe
		}
	}
	return parsers.No
}

// detectStream scores a stream-json line, Claude's shapes, as Claude's
// detector does: a stream begun here (at CodeBuddy's log lines) stays
// here, and Claude, first in the registry, keeps its own (it wins every
// tie).
func detectStream(l *parsers.Line) parsers.Confidence {
	switch l.Str("type") {
	case "system", "assistant", "user", "stream_event", "control_request", "control_response",
		"tool_progress", "rate_limit_event", "result":
		return claude.Agent.Detect(l)
	}
	return parsers.No
}
