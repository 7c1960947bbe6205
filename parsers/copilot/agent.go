// Package copilot parses GitHub Copilot CLI's JSONL session events
// (`copilot -p … --output-format json`, docs/formats/copilot.md) into
// streaming events.
//
// Every line but the last is a session event {type, data, id, timestamp,
// [ephemeral], [parentId]} with a namespaced type (assistant.message,
// tool.execution_start, …); the run ends with a result line of its own
// shape {type:"result", sessionId, exitCode, usage}. Text streams as
// assistant.message_delta under a messageId and is repeated whole by the
// persisted assistant.message: the parser passes the deltas as deltas and
// the whole message as a final under the same id, and the session shows
// it once. Reasoning may come three times (deltas, the message's
// reasoningText, assistant.reasoning): all three go to one thinking
// message per model call, closed when the call's assistant.message
// arrives, so what follows it is a final of a finished message.
package copilot

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/tidwall/gjson"
)

// Agent is the Copilot CLI format for the registry.
var Agent = parsers.Agent{
	Name:   "copilot",
	Detect: detect,
	New:    func() parsers.Parser { return newParser() },
	Tools:  tools,
	// The parser copies every string it keeps (message ids, the model).
	Borrow: true,
}

// detect scores a line. A session event has a dotted type and a data
// object, a shape no other agent writes (Codex's dotted types carry
// item, turn or thread objects, never data); the result line is
// Copilot's when it has exitCode and sessionId (Claude's has subtype and
// is_error).
func detect(l *parsers.Line) parsers.Confidence {
	typ := l.Str("type")
	switch {
	case typ == "":
		return parsers.No
	case typ == "result":
		if l.Has("exitCode") && l.Has("sessionId") {
			return parsers.Decisive
		}
		return parsers.No
	case strings.IndexByte(typ, '.') > 0 || typ == "abort":
		if l.Get("data").Type == gjson.JSON && strings.HasPrefix(l.Get("data").Raw, "{") {
			return parsers.Decisive
		}
	}
	return parsers.No
}
