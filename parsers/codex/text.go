package codex

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// usageOf reads a usage object (turn.completed usage, legacy token
// counts). It is the thread's running total: shown, never added up.
func usageOf(u gjson.Result) *streaming.Usage {
	if !u.IsObject() {
		return nil
	}
	return &streaming.Usage{
		InputTokens:      u.Get("input_tokens").Int(),
		OutputTokens:     u.Get("output_tokens").Int(),
		CacheReadTokens:  u.Get("cached_input_tokens").Int(),
		CacheWriteTokens: u.Get("cache_write_input_tokens").Int(),
	}
}

// errorText makes an error message readable. Codex passes HTTP error
// bodies through as JSON text ({"type":"error","status":400,"error":
// {"type":"invalid_request_error","message":"…"}}); those become
// "invalid_request_error (400): …". Anything else is kept as it is.
func errorText(msg string) string {
	s := strings.TrimSpace(msg)
	if !strings.HasPrefix(s, "{") || !jsonscan.ValidString(s) {
		return msg
	}
	v := gjson.Parse(s)
	inner := v.Get("error")
	text := inner.Get("message").String()
	kind := inner.Get("type").String()
	if inner.Type == gjson.String {
		text = inner.Str
	}
	if text == "" {
		text = v.Get("message").String()
	}
	if text == "" {
		return msg
	}
	if kind == "" {
		if t := v.Get("type").String(); t != "error" {
			kind = t
		}
	}
	status := v.Get("status")
	if status.Type != gjson.Number {
		status = inner.Get("status")
	}
	switch {
	case kind != "" && status.Type == gjson.Number:
		return kind + " (" + status.Raw + "): " + text
	case kind != "":
		return kind + ": " + text
	case status.Type == gjson.Number:
		return "HTTP " + status.Raw + ": " + text
	}
	return text
}

// isRetry reports a top-level error that only announces a retry or a
// reconnect ("Reconnecting... 2/5 (…)").
func isRetry(msg string) bool {
	if strings.HasPrefix(msg, "Reconnecting") {
		return true
	}
	low := strings.ToLower(msg)
	return strings.Contains(low, "retrying") || strings.Contains(low, "reconnecting")
}

// jsonObject builds a JSON object from key/value pairs; values are raw
// JSON. Pairs with an empty value are left out; no pairs give "".
func jsonObject(kv ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		if b.Len() == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(parsers.JSONString(kv[i]))
		b.WriteByte(':')
		b.WriteString(kv[i+1])
	}
	if b.Len() == 0 {
		return ""
	}
	b.WriteByte('}')
	return b.String()
}

// quoted is jsonString, or "" for an empty string (left out by jsonObject).
func quoted(s string) string {
	if s == "" {
		return ""
	}
	return parsers.JSONString(s)
}

// rawOrEmpty is a value's raw JSON, or "" when it is absent or null.
func rawOrEmpty(v gjson.Result) string {
	if !v.Exists() || v.Type == gjson.Null {
		return ""
	}
	return v.Raw
}

// shellJoin joins an argv the way Codex shows commands: each word quoted
// for a POSIX shell when it needs it (["bash","-lc","ls -1"] is
// "bash -lc 'ls -1'").
func shellJoin(args []gjson.Result) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(shellQuote(a.String()))
	}
	return b.String()
}

func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("_-./=:,+@%^", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// durationMS reads a Rust Duration ({"secs":N,"nanos":N}) or a number of
// milliseconds.
func durationMS(v gjson.Result) int64 {
	switch {
	case v.IsObject():
		return v.Get("secs").Int()*1000 + v.Get("nanos").Int()/1_000_000
	case v.Type == gjson.Number:
		return v.Int()
	}
	return 0
}

// itoa is strconv.Itoa.
func itoa(n int) string { return strconv.Itoa(n) }
