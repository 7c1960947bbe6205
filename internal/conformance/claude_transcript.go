package conformance

import (
	"strings"

	"github.com/tidwall/gjson"
)

func init() { Register("claude-transcript", claudeTranscriptExpect) }

// claudeTranscriptExpect reads a Claude Code session transcript. Texts:
// the text blocks of assistant records (subagents' too, and those a
// progress record mirrors), not API error records. Exit, from the main
// conversation (sidechains aside): an interruption marker or an API
// error last 1; assistant text last with every tool_use answered 0;
// anything else last (a prompt, a call, a result) 3. Answer: the text
// blocks of the last assistant message of a finished file.
func claudeTranscriptExpect(data []byte, name string) Expect {
	var e Expect
	exit := 3
	pending := map[string]bool{}
	lastMsg := ""
	var answer []string
	// A subagent's own file (every record a sidechain) is read as a
	// conversation of its own.
	mainSeen := false
	for _, v := range objects(data) {
		if t := v.Get("type").String(); (t == "user" || t == "assistant") && !v.Get("isSidechain").Bool() {
			mainSeen = true
		}
	}
	for _, v := range objects(data) {
		if v.Get("type").String() == "progress" && v.Get("data.message").IsObject() {
			v = v.Get("data.message")
			v.Get("message.content").ForEach(func(_, b gjson.Result) bool {
				if v.Get("type").String() == "assistant" && b.Get("type").String() == "text" {
					e.Texts = append(e.Texts, b.Get("text").String())
				}
				return true
			})
			continue
		}
		side := v.Get("isSidechain").Bool() && mainSeen
		c := v.Get("message.content")
		switch v.Get("type").String() {
		case "assistant":
			if v.Get("isApiErrorMessage").Bool() {
				if !side {
					exit = 1
				}
				continue
			}
			id := v.Get("message.id").String()
			c.ForEach(func(_, b gjson.Result) bool {
				switch b.Get("type").String() {
				case "text":
					t := b.Get("text").String()
					e.Texts = append(e.Texts, t)
					if side || strings.TrimSpace(t) == "" {
						return true
					}
					if id != lastMsg {
						answer = answer[:0]
						lastMsg = id
					}
					answer = append(answer, t)
					exit = 3
					if len(pending) == 0 {
						exit = 0
					}
				case "tool_use":
					if !side {
						pending[b.Get("id").String()] = true
						exit = 3
					}
				}
				return true
			})
		case "user":
			if side || v.Get("isMeta").Bool() || v.Get("isCompactSummary").Bool() {
				continue
			}
			if c.Type == gjson.String {
				s := strings.TrimSpace(c.Str)
				if s != "" && !strings.HasPrefix(s, "<") {
					exit, lastMsg = 3, ""
				}
				continue
			}
			c.ForEach(func(_, b gjson.Result) bool {
				switch b.Get("type").String() {
				case "tool_result":
					delete(pending, b.Get("tool_use_id").String())
					exit = 3
				case "text":
					if strings.HasPrefix(b.Get("text").String(), "[Request interrupted by user") {
						exit = 1
					} else {
						exit, lastMsg = 3, ""
					}
				}
				return true
			})
		}
	}
	e.Exit = exit
	if exit == 0 {
		e.Answer = strings.TrimRight(strings.Join(answer, "\n\n"), "\n")
	}
	return e
}
