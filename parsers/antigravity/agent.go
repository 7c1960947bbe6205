// Package antigravity parses the Antigravity CLI's headless output
// (`agy -p … --output-format stream-json`, and the single object of
// `--output-format json`; docs/formats/antigravity.md) into streaming events.
//
// Stream lines are {"event":K, K:{…}}: one init per process, step_update
// lines keyed by (conversation_id, step_index) — a step is reported ACTIVE
// and then DONE or ERROR — and one result per turn. A step of type
// agent_response is one model call: its text_delta chunks are deltas of
// one message, and its usage is the call's. A tool step is one tool
// call, its start and end correlated by the step's key. The result
// repeats the answer whole (the session shows it once) and its usage is
// cumulative for the conversation: it is passed on as it is, never added.
package antigravity

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/tidwall/gjson"
)

// Agent is the Antigravity CLI format for the registry.
var Agent = parsers.Agent{
	Name:    "antigravity",
	Aliases: []string{"agy"},
	Detect:  detect,
	New:     func() parsers.Parser { return newParser() },
	Tools:   tools,
	// The parser copies what it keeps (the open message id).
	Borrow: true,
}

// detect scores a line. No other agent keys its lines by "event" with the
// payload under a key of the same name; the json mode's bare result has
// status and conversation_id and no event.
func detect(l *parsers.Line) parsers.Confidence {
	switch ev := l.Str("event"); ev {
	case "init", "step_update", "result":
		if l.Get(ev).IsObject() {
			return parsers.Decisive
		}
	case "command_result":
		if l.Get("command").IsObject() {
			return parsers.Decisive
		}
	case "":
		if l.Get("status").Type == gjson.String && l.Get("conversation_id").Type == gjson.String &&
			!l.Has("type") {
			return parsers.Decisive
		}
	}
	return parsers.No
}
