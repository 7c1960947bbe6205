package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/tidwall/gjson"
)

// rolloutTypes are the line types of a Codex session rollout file
// (~/.codex/sessions/…/rollout-*.jsonl): not exec output, labelled only.
var rolloutTypes = map[string]bool{
	"session_meta":  true,
	"event_msg":     true,
	"response_item": true,
	"turn_context":  true,
	"compacted":     true,
}

// Detect scores one line. Decisive: the thread./turn./item. types and
// session.created (no other agent uses them), a legacy {"id","msg":{"type"}}
// envelope, and the legacy config summary (its keys "sandbox" and
// "approval" or "workdir" sit beside keys with spaces such as
// "reasoning effort"). Maybe: the legacy {"prompt":…} line and rollout
// lines, which only Codex writes but which say little, and the top-level
// error and request_user_input lines. The decoder leaves the current
// parser when it says No to a line another agent says Maybe to, so a
// line Codex writes must never score No (Cline claims
// {"type":"error","message":…} as Maybe). No otherwise.
func Detect(l *parsers.Line) parsers.Confidence {
	if t := l.Str("type"); t != "" {
		switch {
		case strings.HasPrefix(t, "thread.") || strings.HasPrefix(t, "turn.") ||
			strings.HasPrefix(t, "item.") || t == "session.created":
			return parsers.Decisive
		case t == "error" && l.Get("message").Type == gjson.String && !l.Has("timestamp") && !l.Has("sessionID"):
			// Shared with Kilo/Cline's error line; Maybe keeps a Codex
			// stream from being switched away on its retry notices.
			return parsers.Maybe
		case t == "request_user_input" && (l.Has("call_id") || l.Has("questions")):
			return parsers.Maybe
		case rolloutTypes[t] && l.Has("payload") && l.Has("timestamp"):
			return parsers.Maybe
		}
		return parsers.No
	}
	if l.Has("type") {
		return parsers.No
	}
	if m := l.Get("msg"); m.IsObject() {
		if m.Get("type").Type == gjson.String && l.Has("id") {
			return parsers.Decisive
		}
		return parsers.No
	}
	if isConfigLine(l) {
		return parsers.Decisive
	}
	if strings.HasPrefix(l.JSON, `{"prompt":`) && l.Get("prompt").Type == gjson.String {
		return parsers.Maybe
	}
	return parsers.No
}

// isConfigLine reports the legacy config summary: a flat object with
// "sandbox" and "approval" or "workdir", and no type.
func isConfigLine(l *parsers.Line) bool {
	if !l.Has("sandbox") || l.Has("type") || l.Has("msg") {
		return false
	}
	return l.Has("approval") || l.Has("workdir") || l.Has("reasoning effort")
}
