// Package openclaw parses `openclaw agent --json` (docs/formats/openclaw.md)
// into streaming events.
//
// OpenClaw runs the pi agent loop inside its gateway and prints nothing
// while it works: when the run ends it prints one pretty-printed JSON
// document, {payloads, meta} (embedded, --local) or the gateway's
// response {runId, status, summary, result:{payloads, meta}}. The input
// reader hands the document over whole; it is one run: the reply's
// payloads, the prompt, and the run's figures and outcome from meta.
package openclaw

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
)

// Agent is the OpenClaw format for the registry.
var Agent = parsers.Agent{
	Name:   "openclaw",
	Detect: detect,
	New:    func() parsers.Parser { return &parser{} },
}

// detect scores a line: a document with payloads and meta (an object with
// durationMs or agentMeta), or the gateway's runId with a result holding
// payloads. It has no type key, and shares no keys with pi's stream or
// Gemini's json document (session_id, response, stats).
func detect(l *parsers.Line) parsers.Confidence {
	if l.Has("type") {
		return parsers.No
	}
	if l.Get("payloads").IsArray() {
		if m := l.Get("meta"); m.IsObject() && (m.Get("durationMs").Exists() || m.Get("agentMeta").Exists()) {
			return parsers.Decisive
		}
		return parsers.Maybe
	}
	if l.Has("runId") && l.Get("result").Get("payloads").IsArray() {
		return parsers.Decisive
	}
	return parsers.No
}
