package conformance

import "strings"

func init() { Register("codex-app-server", codexAppServerExpect) }

// codexAppServerExpect reads a Codex app-server log (JSON-RPC
// notifications). Texts: the text of every completed agentMessage item,
// a sub-agent's too. Exit: the last turn/completed of the root thread
// (the first thread started without a parent, else the thread of the
// first turn/started), completed 0, anything else 1; a root turn/started
// after it (or none at all) 3. A sub-agent thread's turns change nothing.
// Answer: the last agentMessage of the root thread in a completed last
// turn.
func codexAppServerExpect(data []byte, name string) Expect {
	var e Expect
	exit, answer, root := 3, "", ""
	for _, v := range objects(data) {
		if m := v.Get("msg"); m.Get("method").Exists() {
			v = m
		}
		p := v.Get("params")
		thread := p.Get("threadId").String()
		switch v.Get("method").String() {
		case "thread/started":
			if root == "" && p.Get("thread.parentThreadId").String() == "" {
				root = p.Get("thread.id").String()
			}
		case "turn/started":
			if root == "" {
				root = thread
			}
			if thread == root || thread == "" {
				exit, answer = 3, ""
			}
		case "turn/completed":
			if thread != root && thread != "" {
				continue
			}
			exit = 1
			if p.Get("turn.status").String() == "completed" {
				exit = 0
			}
		case "item/completed":
			if p.Get("item.type").String() == "agentMessage" {
				t := p.Get("item.text").String()
				e.Texts = append(e.Texts, t)
				if thread == root || thread == "" {
					answer = t
				}
			}
		}
	}
	e.Exit = exit
	if exit == 0 && strings.TrimSpace(answer) != "" {
		e.Answer = strings.TrimRight(answer, "\n")
	}
	return e
}
