package parsers

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// CleanToolName removes the MCP prefixes agents put on tool names:
// "mcp__acp__Read" is "Read", "mcp__github__create_issue" is
// "github.create_issue".
func CleanToolName(name string) string {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return name
	}
	if r, ok := strings.CutPrefix(rest, "acp__"); ok {
		return r
	}
	if server, tool, ok := strings.Cut(rest, "__"); ok && server != "" && tool != "" {
		return server + "." + tool
	}
	return rest
}

// ImageSummary is how an inline image is shown instead of its base64:
// ‹image/png 412 KB›. b64len is the length of the base64 text.
func ImageSummary(mediaType string, b64len int) string {
	if mediaType == "" {
		mediaType = "image"
	}
	return "‹" + mediaType + " " + HumanBytes(int64(b64len)*3/4) + "›"
}

// JSONText returns a value as compact JSON text for an event's Input: the
// raw JSON of objects and arrays, a quoted string for strings.
func JSONText(v gjson.Result) string {
	if !v.Exists() {
		return ""
	}
	return v.Raw
}

// TimeOf reads a line's or an item's timestamp, however the agent
// writes it: a number is Unix epoch milliseconds, a string RFC 3339 (the
// fraction's width varies). Anything else, or a string of another form,
// is the zero time.
func TimeOf(v gjson.Result) time.Time {
	switch v.Type {
	case gjson.Number:
		if v.Num > 0 {
			return time.UnixMilli(v.Int())
		}
	case gjson.String:
		if t, err := time.Parse(time.RFC3339Nano, v.Str); err == nil {
			return t
		}
	}
	return time.Time{}
}

// IntOrNil returns a pointer to the value's integer, or nil when the value
// is absent or null.
func IntOrNil(v gjson.Result) *int {
	if !v.Exists() || v.Type == gjson.Null {
		return nil
	}
	n := int(v.Int())
	return &n
}

// UnknownType names a line no parser understood by its most telling
// field: its "type", else its "event" (Antigravity), else its "method"
// (JSON-RPC), else its first key; "{}" for an empty object. It is never
// empty, so an unknown event is never shown as "?".
func UnknownType(l *Line) string {
	for _, k := range [...]string{"type", "event", "method"} {
		if s := l.Str(k); s != "" {
			return s
		}
	}
	if l.ntop > 0 {
		return l.key(0)
	}
	return "{}"
}

// AddUsage adds u's tokens and cost to the sum t (not its context
// window: a model's, not a count).
func AddUsage(t *streaming.Usage, u streaming.Usage) {
	t.InputTokens += u.InputTokens
	t.OutputTokens += u.OutputTokens
	t.CacheReadTokens += u.CacheReadTokens
	t.CacheWriteTokens += u.CacheWriteTokens
	t.CostUSD += u.CostUSD
	t.HasCost = t.HasCost || u.HasCost
}

// JSONString quotes s as a JSON string, leaving <, > and & as they are
// (a tool input a parser builds from the wire's text).
func JSONString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// FirstLine is the first line of s, without the white space around s.
func FirstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
