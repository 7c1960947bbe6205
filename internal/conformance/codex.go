package conformance

import (
	"strings"

	"github.com/tidwall/gjson"
)

func init() { Register("codex", codexExpect) }

// codexExpect reads a `codex exec --json` capture of any generation.
// Texts: the agent messages (current item.completed agent_message
// .item.text, 0.42 assistant_message, legacy msg.message of
// agent_message; deltas are not texts of their own). Exit: from the last
// run's terminal event: turn.completed or legacy task_complete 0,
// turn.failed or a legacy error 1, none 3 (a run begins at thread.started,
// session.created, turn.started and legacy task_started). Answer: the last
// agent message of a successful last run (the legacy last_agent_message
// when given), unless plan-mode text came after it.
func codexExpect(data []byte, name string) Expect {
	var e Expect
	exit := 3
	answer := ""
	failed := false
	for _, v := range objects(data) {
		if m := v.Get("msg"); m.IsObject() && !v.Get("type").Exists() {
			switch m.Get("type").String() {
			case "agent_message":
				t := m.Get("message").String()
				e.Texts = append(e.Texts, t)
				answer = t
			case "task_started":
				exit, answer, failed = 3, "", false
			case "error":
				exit, failed = 1, true
			case "task_complete":
				if !failed {
					exit = 0
					if t := m.Get("last_agent_message"); t.Type == gjson.String {
						answer = t.Str
					}
				}
			}
			continue
		}
		switch v.Get("type").String() {
		case "thread.started", "session.created", "turn.started":
			exit, answer = 3, ""
		case "turn.completed":
			exit = 0
		case "turn.failed":
			exit = 1
		case "item.plan.delta":
			answer = ""
		case "item.completed":
			it := v.Get("item")
			typ := it.Get("type").String()
			if typ == "" {
				typ = it.Get("item_type").String()
			}
			switch typ {
			case "agent_message", "assistant_message":
				t := it.Get("text").String()
				e.Texts = append(e.Texts, t)
				answer = t
			case "plan":
				answer = ""
			}
		}
	}
	e.Exit = exit
	if exit == 0 && strings.TrimSpace(answer) != "" {
		e.Answer = strings.TrimRight(answer, "\n")
	}
	return e
}
