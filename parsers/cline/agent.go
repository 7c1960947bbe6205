// Package cline parses the say/ask message format of the Cline lineage:
// Cline CLI `--json` lines ({"ts","type":"say"|"ask","say"|"ask","text"}),
// Kilo Code CLI 0.x `--json` lines ({"timestamp","source","type",
// "say"|"ask","content"|"metadata"}), Roo Code, the persisted
// ui_messages.json array of the same messages, and the line format of the
// newer Cline SDK CLI (run_start / agent_event / run_result).
//
// The format is one of snapshots: a message that is still being written is
// printed again, whole, every time it grows (partial:true), and once more
// when it is complete. A message's identity is its messageId, else its
// source, timestamp, type and subtype (docs/formats/cline.md, which
// also gives the completion rules the parser follows).
package cline

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/tidwall/gjson"
)

// Agent is the Cline / Kilo Code / Roo format for the registry.
var Agent = parsers.Agent{
	Name:    "cline",
	Aliases: []string{"kilo-legacy", "roo"},
	Detect:  detect,
	New:     func() parsers.Parser { return newParser() },
	Tools:   tools,
}

// sdkTypes are the top-level types of the Cline SDK CLI (apps/cli), whose
// lines carry an ISO-8601 "ts" string.
var sdkTypes = map[string]bool{
	"run_start": true, "agent_event": true, "run_result": true, "run_aborted": true,
	"run_abort_requested": true, "team_event": true, "hook_event": true, "team_restored": true,
}

// detect scores a line. Decisive only for shapes no other agent writes:
// type say|ask with ts (or a say/ask key), Kilo lines with a source, the
// Ink JSON view's type "message" with messageType, Cline's task_started,
// and the SDK CLI types. Other agents' "assistant", "text", "message" or
// "error" lines are never decisive here.
func detect(l *parsers.Line) parsers.Confidence {
	typ := l.Str("type")
	if src := l.Get("source"); src.Type == gjson.String && (l.Has("timestamp") || l.Has("messageId")) {
		switch {
		case l.Has("say") || l.Has("ask"):
			return parsers.Decisive
		case src.Str == "extension" && (typ == "say" || typ == "ask"):
			return parsers.Decisive
		case src.Str == "cli" && typ != "" && (l.Has("content") || l.Has("id")):
			// Droid's error line has source "cli" too, with a message.
			return parsers.Decisive
		}
	}
	switch typ {
	case "say", "ask":
		if l.Has("ts") || l.Has(typ) || l.Has("timestamp") {
			return parsers.Decisive
		}
		return parsers.Maybe
	case "task_started":
		if l.Has("taskId") {
			return parsers.Decisive
		}
	case "message":
		if mt := l.Str("messageType"); (mt == "say" || mt == "ask") && l.Has(mt) {
			return parsers.Decisive
		}
	case "completion":
		if l.Has("status") && l.Has("timestamp") {
			return parsers.Maybe
		}
	case "error":
		// Cline CLI 2.x {"type":"error","message":…}; the SDK CLI adds "ts".
		if l.Has("message") {
			return parsers.Maybe
		}
	}
	if sdkTypes[typ] && l.Get("ts").Type == gjson.String {
		return parsers.Decisive
	}
	return parsers.No
}
