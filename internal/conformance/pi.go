package conformance

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

func init() { Register("pi", piExpect) }

// piExpect reads a `pi --mode json` capture (docs/formats/pi.md). Texts: the
// text blocks of each assistant message_end; for a message cut off before
// its end, its text_delta chunks per content index; for a run that shows
// no assistant message at all, the assistant messages agent_end repeats.
// Exit: a prompt's run ends at an agent_end whose willRetry is not true
// (or at agent_settled after any agent_end); its last assistant message's
// stopReason "error" or "aborted" fails it (1), anything else succeeds
// (0); the last agent_start with no end after it is 3. Answer: the last
// assistant message's text, when it has one text block and the run
// succeeded.
func piExpect(data []byte, _ string) Expect {
	var (
		texts    []string
		deltas   map[string]*strings.Builder // content index → text of an unfinished message
		order    []string
		answered bool   // an assistant message_end in this run
		stop     string // the last assistant message's stopReason
		lastText []string
		exit     = 3
		ended    bool
	)
	flushDeltas := func() {
		for _, k := range order {
			texts = append(texts, deltas[k].String())
		}
		deltas, order = nil, nil
	}
	assistant := func(m gjson.Result) {
		deltas, order = nil, nil
		answered = true
		stop = m.Get("stopReason").String()
		lastText = nil
		for _, b := range m.Get("content").Array() {
			if b.Get("type").String() == "text" {
				texts = append(texts, b.Get("text").String())
				lastText = append(lastText, b.Get("text").String())
			}
		}
	}
	for _, v := range objects(data) {
		switch v.Get("type").String() {
		case "agent_start":
			if ended {
				answered, stop, lastText = false, "", nil
			}
			ended = false
			exit = 3
		case "message_start":
			if v.Get("message.role").String() == "assistant" {
				flushDeltas()
			}
		case "message_update":
			ev := v.Get("assistantMessageEvent")
			if ev.Get("type").String() != "text_delta" {
				continue
			}
			k := strconv.Itoa(int(ev.Get("contentIndex").Int()))
			if deltas == nil {
				deltas = map[string]*strings.Builder{}
			}
			if deltas[k] == nil {
				deltas[k] = &strings.Builder{}
				order = append(order, k)
			}
			deltas[k].WriteString(ev.Get("delta").String())
		case "message_end":
			if v.Get("message.role").String() == "assistant" {
				assistant(v.Get("message"))
			}
		case "agent_end":
			flushDeltas()
			if !answered {
				for _, m := range v.Get("messages").Array() {
					if m.Get("role").String() == "assistant" {
						assistant(m)
					}
				}
			}
			ended = true
			if v.Get("willRetry").Bool() {
				continue
			}
			exit = piExit(stop)
		case "agent_settled":
			if ended {
				exit = piExit(stop)
			}
		}
	}
	flushDeltas()
	e := Expect{Exit: exit}
	e.Texts = onceEach(texts)
	if exit == 0 && len(lastText) == 1 {
		e.Answer = lastText[0]
	}
	return e
}

func piExit(stop string) int {
	if stop == "error" || stop == "aborted" {
		return 1
	}
	return 0
}
