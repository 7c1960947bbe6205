// Package cursor parses Cursor CLI (cursor-agent / agent) stream-json,
// with and without --stream-partial-output, into streaming events.
//
// Wire format: docs/formats/cursor.md. Lines are system/init, user
// (prompt echo), thinking (delta/completed), assistant, tool_call
// (started/completed, one *ToolCall variant key per call) and result.
package cursor

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
)

// Agent is the Cursor format for the registry.
var Agent = parsers.Agent{
	Name:    "cursor",
	Aliases: []string{"cursor-agent"},
	Detect:  detect,
	New:     func() parsers.Parser { return newParser() },
	Tools:   tools,
}

// detect scores a line. Cursor shares system/user/assistant/result with
// Claude Code, Qwen and Amp; only its own types and fields are decisive:
// thinking and tool_call lines, an init without Claude's or Qwen's fields,
// and assistant lines carrying model_call_id or timestamp_ms.
func detect(l *parsers.Line) parsers.Confidence {
	switch l.Str("type") {
	case "tool_call":
		if l.Has("call_id") || l.Has("tool_call") {
			return parsers.Decisive
		}
	case "thinking":
		switch l.Str("subtype") {
		case "delta", "completed":
			return parsers.Decisive
		}
		if l.Has("session_id") {
			return parsers.Maybe
		}
	case "system":
		if l.Str("subtype") == "init" && isCursorInit(l) {
			return parsers.Decisive
		}
		return parsers.Maybe
	case "assistant":
		if l.Has("model_call_id") || l.Has("timestamp_ms") {
			return parsers.Decisive
		}
		return parsers.Maybe
	case "user", "result":
		return parsers.Maybe
	}
	return parsers.No
}

// isCursorInit tells Cursor's init from Claude Code's, Qwen Code's and
// Amp's: Cursor's has apiKeySource but none of claude_code_version, uuid,
// slash_commands, output_style (Claude), qwen_code_version (Qwen); Amp's
// has no apiKeySource and a T-… thread id.
func isCursorInit(l *parsers.Line) bool {
	if !l.Has("apiKeySource") {
		return false
	}
	for _, k := range [...]string{"claude_code_version", "qwen_code_version", "uuid", "slash_commands", "output_style", "agents", "skills"} {
		if l.Has(k) {
			return false
		}
	}
	return !strings.HasPrefix(l.Str("session_id"), "T-")
}
