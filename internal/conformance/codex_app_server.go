package conformance

import "strings"

func init() { Register("codex-app-server", codexAppServerExpect) }

// codexAppServerExpect reads a Codex app-server log (JSON-RPC
// notifications). Texts: the text of every completed agentMessage item.
// Exit: the last turn/completed's turn.status, completed 0, anything else
// 1; a turn/started after it (or none at all) 3. Answer: the last
// agentMessage of a completed last turn.
func codexAppServerExpect(data []byte, name string) Expect {
	var e Expect
	exit, answer := 3, ""
	for _, v := range objects(data) {
		if m := v.Get("msg"); m.Get("method").Exists() {
			v = m
		}
		p := v.Get("params")
		switch v.Get("method").String() {
		case "turn/started":
			exit, answer = 3, ""
		case "turn/completed":
			exit = 1
			if p.Get("turn.status").String() == "completed" {
				exit = 0
			}
		case "item/completed":
			if p.Get("item.type").String() == "agentMessage" {
				t := p.Get("item.text").String()
				e.Texts = append(e.Texts, t)
				answer = t
			}
		}
	}
	e.Exit = exit
	if exit == 0 && strings.TrimSpace(answer) != "" {
		e.Answer = strings.TrimRight(answer, "\n")
	}
	return e
}
