package cline

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/tidwall/gjson"
)

// msg is one say/ask (or Kilo CLI) message, whatever dialect printed it.
//
// Cline prints a ClineMessage as it is: {ts, type, say|ask, text, partial}.
// Kilo 0.x renames ts to timestamp, adds source, and moves text to
// metadata (when it parses as a JSON object or array) or content (when it
// does not). The Ink JSON view of Cline CLI 2.x uses type "message" with
// messageType say|ask.
type msg struct {
	id      string       // identity: messageId, else kind.sub@ts
	kind    string       // "say", "ask" or "cli" (a Kilo CLI-sourced message)
	sub     string       // the say/ask subtype, or the CLI message type
	text    string       // text or content; for JSON payloads, the JSON text
	data    gjson.Result // the JSON payload: Kilo metadata, or Cline text parsed
	partial bool         // still being written: a snapshot
	ts      int64        // milliseconds; 0 when absent
}

// complete reports whether the message is complete (partial is not
// true).
func (m *msg) complete() bool { return !m.partial }

// readMsg reads the message a line holds; ok is false for lines that are
// not say/ask messages (task_started, errors, the SDK CLI's lines).
func readMsg(l *parsers.Line, seq int) (m msg, ok bool) {
	typ := l.Str("type")
	src := l.Str("source")
	switch {
	case typ == "say" || typ == "ask":
		m.kind, m.sub = typ, l.Str(typ)
	case typ == "message":
		mt := l.Str("messageType")
		if mt != "say" && mt != "ask" {
			return m, false
		}
		m.kind, m.sub = mt, l.Str(mt)
	case src == "cli" && typ != "":
		m.kind, m.sub = "cli", typ
	default:
		return m, false
	}

	tsv := l.Get("ts")
	if !tsv.Exists() {
		tsv = l.Get("timestamp")
	}
	if tsv.Type == gjson.Number {
		m.ts = tsv.Int()
	}

	if t := l.Get("text"); t.Type == gjson.String {
		m.text = t.Str
		m.data = parseJSONText(t.Str)
	} else if c := l.Get("content"); c.Type == gjson.String {
		m.text = c.Str
		m.data = parseJSONText(c.Str)
	}
	if meta := l.Get("metadata"); (meta.IsObject() || meta.IsArray()) && !kiloBookkeeping(meta) {
		// Kilo: the message's text was JSON and was parsed into metadata.
		m.data = meta
		if m.text == "" {
			m.text = meta.Raw
		}
	}

	m.partial = l.Get("partial").Bool() || l.Str("status") == "partial"

	if id := l.Str("messageId"); id != "" {
		m.id = id
	} else {
		var b strings.Builder
		if src != "" && src != "extension" {
			b.WriteString(src)
			b.WriteByte(':')
		}
		b.WriteString(m.kind)
		b.WriteByte('.')
		b.WriteString(m.sub)
		switch {
		case tsv.Exists() && tsv.Raw != "":
			b.WriteByte('@')
			b.WriteString(strings.Trim(tsv.Raw, `"`))
		default:
			// No timestamp: every line is a message of its own.
			b.WriteByte('#')
			b.WriteString(strconv.Itoa(seq))
		}
		m.id = b.String()
	}
	return m, true
}

// parseJSONText parses a message text that holds a JSON object or array
// (tool calls, api_req_started, followups); anything else has no data.
func parseJSONText(s string) gjson.Result {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') || !jsonscan.ValidString(t) {
		return gjson.Result{}
	}
	return gjson.Parse(t)
}

// kiloBookkeeping reports Kilo's own ClineMessage metadata
// ({"kiloCode":{…}}), which is not the message's payload.
func kiloBookkeeping(meta gjson.Result) bool {
	if !meta.IsObject() {
		return false
	}
	only := true
	meta.ForEach(func(k, _ gjson.Result) bool {
		if k.Str != "kiloCode" {
			only = false
		}
		return only
	})
	return only
}
