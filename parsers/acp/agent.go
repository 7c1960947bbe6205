// Package acp parses Agent Client Protocol transcripts: JSON-RPC 2.0 lines
// of both directions (session/update notifications, session/prompt and its
// response, session/request_permission and its answer, session/load
// replays, terminal requests), and bare update objects without the
// envelope.
//
// Wire format and chunk handling: docs/formats/acp.md (a chunk appends
// to the last entry only if it is of the same kind).
package acp

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/tidwall/gjson"
)

// Agent is the ACP format for the registry.
var Agent = parsers.Agent{
	Name:    "acp",
	Aliases: []string{"agent-client-protocol"},
	Detect:  detect,
	New:     func() parsers.Parser { return newParser() },
	Tools:   tools,
}

// detect scores a line: JSON-RPC lines with ACP methods, responses with an
// ACP stopReason or an integer protocolVersion, and bare update objects
// are decisive; other JSON-RPC lines are Maybe (so an ACP stream keeps its
// parser on plain acknowledgements). MCP (string protocolVersion,
// tools/*, camelCase stopReason) and Codex app-server methods are not
// taken.
func detect(l *parsers.Line) parsers.Confidence {
	if l.Has("sessionUpdate") {
		return parsers.Decisive
	}
	if !l.Has("jsonrpc") {
		if m := l.Get("msg"); m.IsObject() && m.Get("jsonrpc").Exists() {
			// A recorder's {"dir":"in","msg":{…}} wrapper.
			return detectRPC(m.Get("method").Str, m.Get("params"), m.Get("result"), m.Get("id").Exists())
		}
		if l.Get("update").Get("sessionUpdate").Exists() {
			return parsers.Decisive
		}
		return parsers.No
	}
	return detectRPC(l.Str("method"), l.Get("params"), l.Get("result"), l.Has("id"))
}

func detectRPC(method string, params, result gjson.Result, hasID bool) parsers.Confidence {
	if method != "" {
		if isACPMethod(method, params) {
			return parsers.Decisive
		}
		return parsers.Maybe
	}
	if !hasID {
		return parsers.Maybe
	}
	if stopReasons[result.Get("stopReason").Str] != "" {
		return parsers.Decisive
	}
	if result.Get("protocolVersion").Type == gjson.Number {
		return parsers.Decisive
	}
	return parsers.Maybe
}

func isACPMethod(method string, params gjson.Result) bool {
	switch {
	case strings.HasPrefix(method, "session/"):
		return true
	case method == "initialize":
		return params.Get("protocolVersion").Type == gjson.Number
	case method == "fs/read_text_file", method == "fs/write_text_file":
		return true
	case strings.HasPrefix(method, "terminal/"):
		return params.Get("sessionId").Exists()
	}
	return false
}

// stopReasons maps the v1 stop reasons to how they read as a failure
// reason ("" for unknown values).
var stopReasons = map[string]string{
	"end_turn":          "end_turn",
	"max_tokens":        "max_tokens: the response reached the token limit",
	"max_turn_requests": "max_turn_requests: the turn reached its limit of model requests",
	"refusal":           "refusal: the agent refused to continue",
	"cancelled":         "cancelled: the turn was cancelled",
}
