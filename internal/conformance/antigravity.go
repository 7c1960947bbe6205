package conformance

import (
	"strings"

	"github.com/tidwall/gjson"
)

func init() {
	Register("antigravity", antigravityCapture)
}

// antigravityCapture reads an Antigravity CLI (agy) capture
// (docs/formats/antigravity.md): stream-json lines keyed by "event", or the
// bare result object of --output-format json.
//
// Texts: per agent_response step (conversation_id, step_index), its
// text_delta chunks joined; a result's response when its turn streamed
// no text.
// Exit: the last result: status SUCCESS is 0, ERROR and CANCELED 1; an
// init or step after the last result with no result of its own is 3.
// Answer: the last result's response when it is SUCCESS.
func antigravityCapture(data []byte, _ string) Expect {
	var e Expect
	exit := 3
	at := map[string]int{} // step key → its index in e.Texts
	turnText := false
	answer := ""
	result := func(r gjson.Result) {
		exit, answer = 1, ""
		if r.Get("status").Str == "SUCCESS" {
			exit, answer = 0, r.Get("response").Str
		}
		if resp := r.Get("response").Str; !turnText && strings.TrimSpace(resp) != "" {
			e.Texts = append(e.Texts, resp)
		}
		turnText = false
	}
	for _, v := range objects(data) {
		switch v.Get("event").Str {
		case "init":
			exit = 3
		case "step_update":
			exit = 3
			s := v.Get("step_update")
			t := s.Get("text_delta").Str
			if s.Get("step_type").Str != "agent_response" || t == "" {
				continue
			}
			key := s.Get("conversation_id").Str + "/" + s.Get("step_index").Raw
			i, ok := at[key]
			if !ok {
				i = len(e.Texts)
				at[key] = i
				e.Texts = append(e.Texts, "")
			}
			e.Texts[i] += t
			turnText = true
		case "result":
			result(v.Get("result"))
		case "":
			if v.Get("status").Exists() && v.Get("conversation_id").Exists() {
				result(v)
			}
		}
	}
	e.Exit = exit
	e.Answer = answer
	return e
}
