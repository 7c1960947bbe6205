package conformance

import (
	"strings"

	"github.com/tidwall/gjson"
)

func init() {
	Register("copilot", copilotCapture)
}

// copilotCapture reads a Copilot CLI --output-format json capture
// (docs/formats/copilot.md).
//
// Texts: one per messageId: the content of its assistant.message, or,
// when that is empty or "[REDACTED]", its concatenated
// assistant.message_delta chunks.
// Exit: the last result line: exitCode 0 with no session.error or abort
// in its run is 0, anything else 1; a run (user.message or assistant.*
// lines) with no result after it is 3.
// Answer: the last top-level message text of a successful run.
func copilotCapture(data []byte, _ string) Expect {
	var e Expect
	exit := 3
	failed := false
	var order []string
	texts := map[string]string{}
	final := map[string]bool{}
	last, runLast := "", ""
	for _, v := range objects(data) {
		typ := v.Get("type").Str
		d := v.Get("data")
		switch {
		case typ == "result":
			exit = 0
			if v.Get("exitCode").Int() != 0 || failed {
				exit = 1
			}
			failed = false
			last, runLast = runLast, ""
			continue
		case typ == "session.error" || typ == "abort":
			failed = true
		case typ == "assistant.message_delta":
			id := d.Get("messageId").Str
			if _, ok := texts[id]; !ok {
				order = append(order, id)
			}
			if !final[id] {
				texts[id] += d.Get("deltaContent").Str
			}
		case typ == "assistant.message":
			id := d.Get("messageId").Str
			c := d.Get("content")
			if _, ok := texts[id]; !ok {
				order = append(order, id)
			}
			if c.Type == gjson.String && c.Str != "" && c.Str != "[REDACTED]" {
				texts[id] = c.Str
				final[id] = true
			}
			if t := texts[id]; strings.TrimSpace(t) != "" && !d.Get("parentToolCallId").Exists() {
				runLast = t
			}
		}
		if typ == "user.message" || strings.HasPrefix(typ, "assistant.") {
			exit = 3
		}
	}
	for _, id := range order {
		if t := texts[id]; strings.TrimSpace(t) != "" {
			e.Texts = append(e.Texts, t)
		}
	}
	e.Exit = exit
	if exit == 0 {
		e.Answer = last
	}
	return e
}
