package conformance

import (
	"bytes"
	"strings"

	"github.com/tidwall/gjson"
)

func init() { Register("gemini-session", geminiSessionExpect) }

// geminiSessionExpect reads a Gemini CLI saved chat: one JSON document
// {sessionId, messages:[…]} or JSONL records (a message written again
// replaces the earlier copy with its id). Texts: the content of every
// gemini message. Exit, from the last user, gemini or error message: a
// gemini message with text and no tool calls 0; an error message, or a
// gemini message with a cancelled call, 1; anything else 3. Answer: that
// last gemini message's text when the exit is 0.
func geminiSessionExpect(data []byte, name string) Expect {
	var msgs []gjson.Result
	index := map[string]int{}
	add := func(m gjson.Result) {
		id := m.Get("id").String()
		if i, ok := index[id]; ok && id != "" {
			msgs[i] = m
			return
		}
		index[id] = len(msgs)
		msgs = append(msgs, m)
	}
	if doc := bytes.TrimSpace(data); gjson.ValidBytes(doc) && gjson.GetBytes(doc, "messages").IsArray() {
		gjson.GetBytes(doc, "messages").ForEach(func(_, m gjson.Result) bool { add(m); return true })
	} else {
		for _, v := range objects(data) {
			switch {
			case v.Get("$set.messages").IsArray():
				v.Get("$set.messages").ForEach(func(_, m gjson.Result) bool { add(m); return true })
			case v.Get("id").Exists() && v.Get("type").Exists():
				add(v)
			}
		}
	}
	var e Expect
	exit, answer := 3, ""
	for _, m := range msgs {
		text := m.Get("content").String()
		if m.Get("content").IsArray() {
			var parts []string
			m.Get("content").ForEach(func(_, p gjson.Result) bool { parts = append(parts, p.Get("text").String()); return true })
			text = strings.Join(parts, "\n")
		}
		switch m.Get("type").String() {
		case "user":
			exit, answer = 3, ""
		case "error":
			exit = 1
		case "gemini":
			e.Texts = append(e.Texts, text)
			calls := m.Get("toolCalls").Array()
			exit, answer = 3, ""
			if strings.TrimSpace(text) != "" && len(calls) == 0 {
				exit, answer = 0, text
			}
			for _, c := range calls {
				if c.Get("status").String() == "cancelled" {
					exit = 1
				}
			}
		}
	}
	e.Exit = exit
	if exit == 0 {
		e.Answer = strings.TrimRight(answer, "\n")
	}
	return e
}
