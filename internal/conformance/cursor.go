package conformance

import (
	"bytes"
	"strings"

	"github.com/tidwall/gjson"
)

func init() {
	Register("cursor", cursorCapture)
}

// cursorCapture reads a Cursor CLI stream-json capture
// (docs/formats/cursor.md).
//
// Texts: the text of every complete assistant line. Without
// --stream-partial-output every assistant line is one segment; with it,
// the fragments (timestamp_ms, no model_call_id) are skipped and each
// segment's recap line (model_call_id, or neither field) holds its whole
// text. result.result (all segments run together) is only an answer when
// the run has no assistant line.
// Exit: the last run's result line (is_error or a subtype other than
// success: 1); no result after the last init: 3.
// Answer: the last complete assistant line of a successful run without
// partial output (with it, the shown text may differ from the recap in
// surrounding whitespace).
func cursorCapture(data []byte, _ string) Expect {
	var e Expect
	exit := 3
	last := ""
	runTexts := 0
	lines := bytes.Split(data, []byte("\n"))
	// With partial output a segment's recap can come twice (a replay with
	// model_call_id, then the final line, one after the other): one text.
	partial := false
	for _, line := range lines {
		v := gjson.ParseBytes(line)
		if v.Get("type").Str == "assistant" && v.Get("timestamp_ms").Exists() && !v.Get("model_call_id").Exists() {
			partial = true
			break
		}
	}
	for _, v := range objects(data) {
		switch v.Get("type").Str {
		case "system":
			if v.Get("subtype").Str == "init" {
				exit, last, runTexts = 3, "", 0
			}
		case "tool_call":
			last = "" // a text said again after a tool call is said twice
		case "assistant":
			if v.Get("timestamp_ms").Exists() && !v.Get("model_call_id").Exists() {
				continue
			}
			var b strings.Builder
			for _, c := range v.Get("message.content").Array() {
				if c.Get("type").Str == "text" {
					b.WriteString(c.Get("text").Str)
				}
			}
			t := b.String()
			if strings.TrimSpace(t) == "" {
				continue
			}
			if !partial || t != last {
				e.Texts = append(e.Texts, t)
			}
			last = t
			runTexts++
		case "result":
			exit = 0
			if v.Get("is_error").Bool() || (v.Get("subtype").Exists() && v.Get("subtype").Str != "success") {
				exit = 1
			}
			if r := v.Get("result").Str; runTexts == 0 && exit == 0 && strings.TrimSpace(r) != "" {
				e.Texts = append(e.Texts, r)
				last = r
			}
		}
	}
	e.Exit = exit
	if exit == 0 && !partial {
		e.Answer = strings.TrimSuffix(last, "\n")
	}
	return e
}
