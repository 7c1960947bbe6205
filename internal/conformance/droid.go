package conformance

import "strings"

func init() { Register("droid", droidExpect) }

// droidExpect reads `droid exec --output-format stream-json`
// (docs/formats/droid.md): one object a line.
//
// Texts: every assistant message's text, but one the error line after it
// repeats (that text is the run's failure, shown once as such).
// Exit: an error line with source "cli" is 1; a completion line is 0; a
// stream with neither (builds before the completion event) is 3.
// Answer: the completion's finalText, else the last assistant message.
func droidExpect(data []byte, _ string) Expect {
	var e Expect
	exit, last, answer := 3, "", ""
	for _, v := range objects(data) {
		switch v.Get("type").Str {
		case "system":
			exit = 3
		case "message":
			if v.Get("role").Str == "assistant" {
				last = v.Get("text").Str
				e.Texts = append(e.Texts, last)
			}
		case "error":
			if n := len(e.Texts); n > 0 && strings.TrimSpace(e.Texts[n-1]) == strings.TrimSpace(v.Get("message").Str) {
				e.Texts = e.Texts[:n-1]
			}
			exit = 1
		case "completion":
			if exit == 3 {
				exit, answer = 0, v.Get("finalText").Str
				if answer == "" {
					answer = last
				}
			}
		}
	}
	e.Exit, e.Answer = exit, answer
	return e
}
