package conformance

import (
	"strings"

	"github.com/tidwall/gjson"
)

func init() { Register("codex-rollout", codexRolloutExpect) }

// codexRolloutExpect reads a Codex rollout file (~/.codex/sessions). The
// words are the response_item messages (event_msg agent_message says
// them again). Texts: the output_text parts of assistant messages. Exit:
// task_complete 0 (1 with an error), turn_aborted 1; without them, 0 when
// the last thing written is an assistant message with every function
// call answered, else 3 (a prompt, a call, an output still awaiting the
// model). Answer: the last assistant message of a finished file.
func codexRolloutExpect(data []byte, name string) Expect {
	var e Expect
	exit, answer := 3, ""
	pending := map[string]bool{}
	for _, v := range objects(data) {
		t := v.Get("type").String()
		p := v.Get("payload")
		if !p.Exists() {
			p, t = v, "response_item" // the bare layout
		}
		switch t {
		case "response_item":
			switch p.Get("type").String() {
			case "message":
				if p.Get("role").String() != "assistant" {
					continue
				}
				var parts []string
				p.Get("content").ForEach(func(_, c gjson.Result) bool {
					if c.Get("type").String() == "output_text" {
						e.Texts = append(e.Texts, c.Get("text").String())
						parts = append(parts, c.Get("text").String())
					}
					return true
				})
				answer = strings.Join(parts, "\n")
				exit = 3
				if len(pending) == 0 {
					exit = 0
				}
			case "function_call", "custom_tool_call", "local_shell_call":
				pending[p.Get("call_id").String()] = true
				exit = 3
			case "function_call_output", "custom_tool_call_output":
				delete(pending, p.Get("call_id").String())
				exit = 3
			}
		case "event_msg":
			switch p.Get("type").String() {
			case "task_started", "user_message":
				exit = 3
			case "task_complete":
				exit = 0
				if p.Get("error.message").String() != "" {
					exit = 1
				}
			case "turn_aborted":
				exit = 1
			}
		}
	}
	e.Exit = exit
	if exit == 0 && strings.TrimSpace(answer) != "" {
		e.Answer = strings.TrimRight(answer, "\n")
	}
	return e
}
