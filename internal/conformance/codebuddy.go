package conformance

import (
	"strings"
)

func init() { Register("codebuddy", codebuddyExpect) }

// codebuddyExpect reads CodeBuddy Code's `--output-format json`
// (docs/formats/codebuddy.md): one array (pretty-printed, or its elements
// one per line) of Responses-style items and a final Claude-style result.
// Texts: the output_text parts of each assistant message item. Exit: the
// result element: is_error true or a subtype other than "success" fail
// (1), else 0; no result is 3. Answer: the result's result text of a run
// that succeeded. A stream-json capture (Claude's shapes) is read as
// Claude's.
func codebuddyExpect(data []byte, _ string) Expect {
	values := documents(data)
	var (
		texts  []string
		exit   = 3
		answer string
	)
	for _, v := range values {
		switch v.Get("type").String() {
		case "system", "assistant", "user", "stream_event":
			return claudeValues(values)
		case "message":
			if v.Get("role").String() != "assistant" {
				continue
			}
			for _, c := range v.Get("content").Array() {
				if c.Get("type").String() == "output_text" {
					texts = append(texts, c.Get("text").String())
				}
			}
		case "result":
			exit, answer = 0, v.Get("result").String()
			if v.Get("is_error").Bool() || v.Get("subtype").String() != "success" {
				exit, answer = 1, ""
			}
		}
	}
	e := Expect{Exit: exit, Answer: strings.TrimRight(answer, "\n")}
	e.Texts = onceEach(texts)
	return e
}
