package conformance

import (
	"strings"
)

func init() { Register("gemini", geminiExpect) }

// geminiExpect reads a Gemini CLI stream-json capture: the assistant text
// of each model turn is the concatenation of its message deltas, and a
// tool_use, tool_result or error line ends a turn's paragraph. A chunk
// that repeats the whole paragraph so far (32 bytes or more) adds only
// its new end. The run's exit is 0 for result status "success", 1 for
// any other result, 3 with no result line. The one-line object of
// --output-format json gives its response, and 1 when it has an error.
func geminiExpect(data []byte, name string) Expect {
	var (
		texts  []string
		cur    string
		exit   = 3
		answer string // the last paragraph of the current run
	)
	flush := func() {
		if strings.TrimSpace(cur) != "" {
			texts = append(texts, cur)
			answer = cur
		}
		cur = ""
	}
	for _, v := range objects(data) {
		if !v.Get("type").Exists() {
			if resp := v.Get("response"); resp.Exists() || v.Get("error").Exists() {
				flush()
				answer = ""
				cur = resp.String()
				flush()
				exit = 0
				if v.Get("error").Exists() {
					exit = 1
				}
			}
			continue
		}
		switch v.Get("type").String() {
		case "init":
			flush()
			exit, answer = 3, ""
		case "message":
			if v.Get("role").String() != "assistant" {
				continue
			}
			chunk := v.Get("content").String()
			if !v.Get("delta").Bool() {
				// Not sent by Gemini CLI; a whole message.
				flush()
				cur = chunk
				flush()
				continue
			}
			if len(cur) >= 32 && strings.HasPrefix(chunk, cur) {
				chunk = chunk[len(cur):]
			}
			cur += chunk
		case "tool_use", "tool_result", "error":
			flush()
		case "result":
			flush()
			exit = 1
			if v.Get("status").String() == "success" {
				exit = 0
			}
		}
	}
	flush()
	e := Expect{Texts: onceEach(texts), Exit: exit}
	if exit == 0 {
		e.Answer = strings.TrimRight(answer, "\n")
	}
	return e
}
