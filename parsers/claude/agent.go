// Package claude parses Claude Code's headless stream-json output
// (`claude -p --output-format stream-json --verbose`, with or without
// --include-partial-messages) into streaming events. Qwen Code and Amp
// write the same shapes and are parsed here too; their events carry the
// agent name "qwen" or "amp" when the stream says which it is.
//
// It also reads Claude Code's session transcripts (~/.claude/projects/…,
// and a subagent's own transcript, a run of its own): transcript.go
// (records, turns and runs), transcript_assistant.go and
// transcript_user.go. The stream parser's files: parser.go (messages and
// tool calls), stream.go (partial messages), assistant.go, user.go,
// system.go, result.go, todo.go; tools.go says what the agent's tool
// inputs mean.
package claude

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
)

// Agent is the Claude Code format (and its relatives Qwen Code and Amp)
// for the registry.
var Agent = parsers.Agent{
	Name:    "claude",
	Aliases: []string{"qwen", "amp"},
	Detect:  readers.Detect,
	New:     readers.New,
	// What the parser keeps of a line is copied (see memoryCap), so the
	// decoder lends it the reader's buffer instead of copying each line.
	Borrow: true,
	Tools:  tools,
}

// readers are the two families of input the claude agent reads: the
// headless stream-json (parser) and Claude Code's session transcripts
// (transcript, transcript.go).
var readers = parsers.Readers{
	{Detect: detect, New: func() parsers.Parser { return newParser() }},
	{Detect: detectTranscript, New: func() parsers.Parser { return newTranscript() }},
}

// detect scores a line. Cursor writes system/init, user, assistant and
// result too: its init has neither tools nor a version field, its
// assistant lines carry timestamp_ms / model_call_id and its result a
// request_id. Gemini's result has stats. Those lines are never Decisive
// here, and the Cursor-only ones score No. Claude's own frames are
// decisive when they carry what only Claude writes (parent_tool_use_id,
// num_turns, total_cost_usd): most lines of a long stream then skip the
// other detectors.
func detect(l *parsers.Line) parsers.Confidence {
	switch l.Str("type") {
	case "system":
		switch l.Str("subtype") {
		case "init":
			if l.Has("claude_code_version") || l.Has("qwen_code_version") ||
				strings.HasPrefix(l.Str("session_id"), "T-") {
				return parsers.Decisive
			}
		case "session_start":
			return parsers.Decisive
		}
		return parsers.Maybe
	case "stream_event", "rate_limit_event":
		return parsers.Decisive
	case "assistant", "user":
		if l.Has("timestamp_ms") || l.Has("model_call_id") || !l.Has("message") {
			return parsers.No
		}
		// parent_tool_use_id is Claude Code's (and Amp's and Qwen's, which
		// this parser reads); Cursor's frames of the same shape lack it.
		if l.Has("parent_tool_use_id") {
			return parsers.Decisive
		}
		return parsers.Maybe
	case "result":
		if l.Has("stats") || (l.Has("request_id") && !l.Has("num_turns") && !l.Has("uuid")) {
			return parsers.No
		}
		// Cursor's result has neither; Gemini's (stats) is ruled out above.
		if l.Has("num_turns") || l.Has("total_cost_usd") {
			return parsers.Decisive
		}
		return parsers.Maybe
	case "control_request", "control_response", "tool_progress", "conversation_reset", "command_lifecycle":
		return parsers.Maybe
	}
	// A type Claude Code added later still has its envelope.
	if l.Has("uuid") && l.Has("session_id") && l.Has("type") {
		return parsers.Maybe
	}
	return parsers.No
}
