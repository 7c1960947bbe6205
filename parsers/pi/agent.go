// Package pi parses the pi coding agent's `pi --mode json` event stream
// (and `--mode rpc`, which writes the same events) into streaming events
// (docs/formats/pi.md).
//
// pi writes its session events as they happen: a session header, then per
// prompt agent_start … agent_end, turns of one model call each, messages
// (user, assistant, toolResult) as message_start … message_end with the
// assistant's streaming in between (message_update), and tool executions.
// Events carry no ids of their own and no timestamps; messages carry epoch
// milliseconds. The same content comes up to four times (message_end,
// turn_end, toolResults, agent_end.messages): only message_end is read,
// and agent_end.messages only for a run that showed no assistant message.
// The run's outcome is its last assistant message's stopReason: pi's own
// exit status is 0 in json mode whatever happened.
package pi

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/tidwall/gjson"
)

// Agent is the pi format for the registry.
var Agent = parsers.Agent{
	Name:   "pi",
	Detect: detect,
	New:    func() parsers.Parser { return newParser() },
	Tools:  tools,
}

// detect scores a line. pi's event names are its own (agent_start,
// turn_end, message_update, tool_execution_*); message_start and
// message_end also name raw Anthropic stream events, whose message is
// {"type":"message",…}: pi's messages have a role and no type.
func detect(l *parsers.Line) parsers.Confidence {
	switch l.Str("type") {
	case "session":
		// The session header; older headers may lack version.
		if l.Get("id").Type == gjson.String && (l.Has("version") || l.Get("cwd").Type == gjson.String) {
			return parsers.Decisive
		}
	case "agent_start", "turn_start", "agent_settled":
		return parsers.Decisive
	case "turn_end":
		if l.Has("toolResults") || l.Get("message").IsObject() {
			return parsers.Decisive
		}
	case "agent_end":
		if l.Get("messages").IsArray() {
			return parsers.Decisive
		}
	case "message_start", "message_end":
		m := l.Get("message")
		if m.IsObject() && m.Get("role").Type == gjson.String && !m.Get("type").Exists() {
			return parsers.Decisive
		}
	case "message_update":
		if l.Get("assistantMessageEvent").IsObject() {
			return parsers.Decisive
		}
	case "tool_execution_start", "tool_execution_update", "tool_execution_end":
		if l.Get("toolCallId").Type == gjson.String {
			return parsers.Decisive
		}
	case "auto_retry_start", "auto_retry_end", "auto_compaction_start", "auto_compaction_end":
		return parsers.Decisive
	case "compaction_start", "compaction_end", "queue_update", "extension_error":
		return parsers.Maybe
	}
	return parsers.No
}
