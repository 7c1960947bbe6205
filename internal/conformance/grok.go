package conformance

func init() { Register("grok", grokExpect) }

// grokExpect reads `grok -p … --output-format streaming-json`
// (docs/formats/grok.md): one object a line, the answer one token a
// line.
//
// Texts: the text tokens between two lines of other types (a model
// call's answer), joined. Exit: an end line whose stopReason is end_turn,
// none, or a limit reached (max_tokens, max_turn_requests) is 0, another 1; no end line, 3. Answer: the last of those
// texts before the end line.
func grokExpect(data []byte, _ string) Expect {
	var e Expect
	exit, cur, last, open := 3, "", "", false
	for _, v := range objects(data) {
		typ := v.Get("type").Str
		if typ == "text" {
			cur += v.Get("data").Str
			open = true
			continue
		}
		if typ == "thought" && !open {
			continue
		}
		if open {
			e.Texts = append(e.Texts, cur)
			last, cur = cur, ""
		}
		open = false
		if typ == "end" {
			exit = 1
			switch v.Get("stopReason").Str {
			case "", "end_turn", "stop", "max_tokens", "max_turn_requests":
				exit = 0
				e.Answer = last
			}
		}
	}
	if open {
		e.Texts = append(e.Texts, cur)
	}
	e.Exit = exit
	return e
}
