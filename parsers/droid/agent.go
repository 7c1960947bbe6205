// Package droid parses Factory Droid's `droid exec --output-format
// stream-json` (docs/formats/droid.md) into streaming events.
//
// Droid writes one object a line, whole: an init much like Claude's, the
// prompt and every answer as whole messages, tool calls and their results
// paired by id, an error line when it stops for lack of permission and,
// in later builds, a completion line. Builds of October 2025 write no
// completion: their runs end as the stream ends.
package droid

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/internal/flat"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Agent is the Droid format for the registry.
var Agent = parsers.Agent{
	Name:   "droid",
	Detect: detect,
	New:    func() parsers.Parser { return flat.New(format) },
	Tools:  tools,
}

// detect scores a line. Droid's init is Claude's without Claude's own
// fields (apiKeySource, claude_code_version, permissionMode, uuid), and
// with Droid's tools (Execute, ApplyPatch: Claude's are Bash, Write);
// its other lines carry Droid's keys (messageId, toolId, finalText) or
// are a message with whole text and an epoch-millisecond timestamp.
func detect(l *parsers.Line) parsers.Confidence {
	switch l.Str("type") {
	case "system":
		if l.Str("subtype") != "init" || !l.Has("session_id") || l.Has("apiKeySource") || l.Has("claude_code_version") ||
			l.Has("permissionMode") || l.Has("uuid") || l.Has("mcp_servers") || l.Has("qwen_code_version") {
			return parsers.No
		}
		if t := l.Get("tools").Raw; strings.Contains(t, `"Execute"`) || strings.Contains(t, `"ApplyPatch"`) {
			return parsers.Decisive
		}
		return parsers.Maybe
	case "message":
		if l.Get("text").Type == gjson.String && l.Get("timestamp").Type == gjson.Number && l.Has("role") && !l.Has("content") {
			return parsers.Decisive
		}
	case "tool_call", "tool_result":
		if l.Has("messageId") && l.Has("toolId") {
			return parsers.Decisive
		}
	case "error":
		if l.Str("source") == "cli" && l.Has("message") && !l.Has("content") && !l.Has("id") {
			return parsers.Decisive
		}
	case "completion":
		if l.Has("finalText") || l.Has("numTurns") {
			return parsers.Decisive
		}
	}
	return parsers.No
}

// tools is what Droid's tool inputs mean: the keys naming a call's
// subject, and the edits of Edit {file_path, old_str, new_str},
// MultiEdit {file_path, changes:[…]} and Create {file_path, content}.
var tools = parsers.Tools{
	Subject: []string{"command", "file_path", "directory_path", "pattern", "folder", "url", "query"},
	Edits:   func(name, input, _ string) []streaming.FileEdit { return editKeys.Read(name, input) },
}

var editKeys = &parsers.EditKeys{Path: []string{"file_path"}, Old: "old_str", New: "new_str", Edits: "changes",
	Content: "content", Writes: []string{"create"}}
