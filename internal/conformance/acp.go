package conformance

import (
	"strings"

	"github.com/tidwall/gjson"
)

func init() {
	Register("acp", acpCapture)
}

// acpCapture reads an ACP transcript (docs/formats/acp.md): JSON-RPC lines of
// both directions, or bare update objects.
//
// Texts: each run of agent_message_chunk text, joined. A run ends at any
// other update except the ones not shown between messages (usage,
// available commands, config options, session info, tool call updates)
// and at a permission request.
// A new messageId starts a new run. Chunks are appended as they came
// (an exact repeat is text), except a chunk that begins with the whole run
// so far, 32 bytes or more, and is longer: that is the text so far
// (streaming.SnapshotMinBytes). A run restating the previous one under
// a new messageId is not a text of its own (docs/formats/acp.md).
// Exit: the response to the last session/prompt: stopReason end_turn 0,
// any other stopReason or an error 1; a prompt without its response (or a
// transcript with no response at all) 3.
// Answer: the last run of a turn that ended with end_turn.
func acpCapture(data []byte, _ string) Expect {
	var e Expect
	exit := 3
	var run strings.Builder
	last, runID := "", ""
	restated := false // the run restates the one before it under a new messageId
	prompts := map[string]bool{}
	flush := func() {
		if run.Len() > 0 && !restated {
			e.Texts = append(e.Texts, run.String())
			last = run.String()
		}
		run.Reset()
		runID, restated = "", false
	}
	for _, v := range objects(data) {
		if m := v.Get("msg"); !v.Get("jsonrpc").Exists() && m.Get("jsonrpc").Exists() {
			v = m
		}
		u := v.Get("params.update")
		switch {
		case v.Get("sessionUpdate").Exists():
			u = v
		case v.Get("update.sessionUpdate").Exists():
			u = v.Get("update")
		}
		if u.Exists() && v.Get("method").Str != "" && v.Get("method").Str != "session/update" {
			u = gjson.Result{}
		}
		switch {
		case u.Exists():
			switch u.Get("sessionUpdate").Str {
			case "agent_message_chunk":
				if u.Get("content.type").Str != "text" {
					continue
				}
				t := u.Get("content.text").Str
				if id := u.Get("messageId").String(); id != "" {
					if runID != "" && id != runID {
						prev := run.String()
						flush()
						// A consolidated restatement of the message just
						// streamed is not shown again.
						restated = prev != "" && strings.TrimSpace(t) == strings.TrimSpace(prev)
					}
					runID = id
				}
				if so := run.String(); len(so) >= 32 && len(t) > len(so) && strings.HasPrefix(t, so) {
					run.Reset() // a cumulative chunk: the text so far
				}
				run.WriteString(t)
			case "usage_update", "available_commands_update", "config_option_update", "session_info_update", "tool_call_update":
			default:
				flush()
			}
		case v.Get("method").Str == "session/request_permission":
			flush()
		case v.Get("method").Str == "session/prompt":
			flush()
			prompts[v.Get("id").Raw] = true
			exit, last = 3, ""
		case v.Get("result.stopReason").Exists():
			flush()
			exit = 1
			if v.Get("result.stopReason").Str == "end_turn" {
				exit = 0
			}
		case v.Get("error").Exists() && prompts[v.Get("id").Raw]:
			flush()
			exit = 1
		}
	}
	flush()
	e.Exit = exit
	if exit == 0 {
		e.Answer = strings.TrimSuffix(last, "\n")
	}
	return e
}
