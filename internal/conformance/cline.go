package conformance

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/tidwall/gjson"
)

func init() { Register("cline", clineExpect) }

// clineExpect reads a Cline / Kilo / Roo capture: say/ask messages one per
// line (Cline `ts`/`text`, Kilo `timestamp`/`source`/`content`|`metadata`)
// or one ui_messages.json array. A message is counted once it is complete
// (partial not true), once per identity (messageId, else source, ts,
// type and subtype). The first say text is the user's prompt echo unless
// a say task came first; the other complete say texts and the
// completion_result texts (without Cline's HAS_CHANGES marker) are the
// answers. The exit is 0 after a completion_result, 1 after an
// api_req_failed or mistake_limit_reached (and the other idle asks that
// end a run), and 3 when the agent did anything after the last of them.
func clineExpect(data []byte, name string) Expect {
	var (
		texts      []string
		seen       = map[string]bool{}
		prompt     bool
		exit       = 3
		answer     string
		completion string
	)
	for _, v := range clineValues(data) {
		typ := v.Get("type").String()
		if typ == "message" {
			typ = v.Get("messageType").String()
		}
		if typ != "say" && typ != "ask" {
			continue
		}
		if v.Get("partial").Bool() || v.Get("status").String() == "partial" {
			continue
		}
		sub := v.Get(typ).String()
		id := v.Get("messageId").String()
		if id == "" {
			ts := v.Get("ts")
			if !ts.Exists() {
				ts = v.Get("timestamp")
			}
			id = v.Get("source").String() + "|" + ts.Raw + "|" + typ + "|" + sub
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		text := v.Get("text").String()
		if text == "" {
			text = v.Get("content").String()
		}
		if text == "" {
			if m := v.Get("metadata"); m.Exists() && !m.Get("kiloCode").Exists() {
				text = m.Raw
			}
		}
		switch {
		case typ == "say" && sub == "task":
			prompt = true
		case typ == "say" && sub == "text":
			if text == "" {
				continue
			}
			if !prompt {
				prompt = true // the prompt echo
			} else {
				texts = append(texts, text)
			}
			if exit != 3 {
				exit, answer = 3, ""
			}
		case sub == "completion_result":
			text = strings.TrimSuffix(text, "HAS_CHANGES")
			if typ == "say" || (text != "" && text != completion) {
				if text != "" {
					texts = append(texts, text)
				}
				completion, answer = text, text
			}
			exit = 0
		case typ == "ask" && clineFailure(sub):
			exit, answer = 1, ""
		case clineActivity(typ, sub):
			if exit != 3 {
				exit, answer = 3, ""
			}
		}
	}
	if exit != 0 {
		answer = ""
	}
	return Expect{Texts: distinctTexts(texts), Exit: exit, Answer: answer}
}

// clineFailure lists the idle asks that end a run unsuccessfully.
func clineFailure(sub string) bool {
	switch sub {
	case "api_req_failed", "mistake_limit_reached", "auto_approval_max_req_reached",
		"payment_required_prompt", "invalid_model":
		return true
	}
	return false
}

// clineActivity reports a message showing the agent (or the user) at work
// after a run's end: a new run began. Bookkeeping after the answer
// (checkpoints, the progress list) and the command Cline may offer with
// its answer are not.
func clineActivity(typ, sub string) bool {
	switch sub {
	case "checkpoint_saved", "checkpoint_created", "task_progress", "deleted_api_reqs",
		"api_req_deleted", "api_req_finished", "command", "command_output",
		"shell_integration_warning", "completion_result":
		return false
	}
	return true
}

// distinctTexts drops texts that cannot appear exactly once in the output:
// repeated texts and texts contained in another one.
func distinctTexts(texts []string) []string {
	count := map[string]int{}
	for _, t := range texts {
		count[t]++
	}
	var out []string
	for _, t := range texts {
		if count[t] != 1 || strings.TrimSpace(t) == "" {
			continue
		}
		inside := false
		for _, o := range texts {
			if o != t && strings.Contains(o, t) {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, t)
		}
	}
	return out
}

// clineValues returns the JSON objects of a capture: the elements of a
// ui_messages.json array, or one object per line with any terminal escape
// garbage before its '{' removed (Kilo-Org/kilocode#3834).
func clineValues(data []byte) []gjson.Result {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var out []gjson.Result
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' && gjson.ValidBytes(t) {
		gjson.ParseBytes(t).ForEach(func(_, v gjson.Result) bool {
			if v.IsObject() {
				out = append(out, v)
			}
			return true
		})
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		line := sc.Text()
		i := strings.IndexByte(line, '{')
		if i < 0 {
			continue
		}
		line = strings.TrimSpace(line[i:])
		if gjson.Valid(line) {
			out = append(out, gjson.Parse(line))
		}
	}
	return out
}
