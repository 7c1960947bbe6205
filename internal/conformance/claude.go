package conformance

import (
	"strings"

	"github.com/tidwall/gjson"
)

func init() {
	Register("claude", func(data []byte, _ string) Expect { return claudeLike(data) })
}

// claudeRun is what one run (from one init to the next) of a Claude-shaped
// capture holds.
type claudeRun struct {
	texts     []string // assistant text blocks of assistant frames
	framed    map[string]bool
	deltas    map[string]*strings.Builder // streamed text per "message/index"
	deltaKeys []string
	deltaMsg  map[string]string // key → message id
	lastTop   string            // last top-level assistant text
	apiErr    bool              // the last top-level text is "[API Error: …]" (Qwen)
	hasResult bool
	failed    bool
	result    string
}

// claudeLike reads a Claude Code (or Qwen/Amp) stream-json capture: the
// assistant text blocks of its `assistant` frames (with partial messages
// the frames repeat the text_delta events, so deltas count only for a
// message that has no frame), or result.result for a run without
// assistant text. Exit: the last run's result decides (is_error, a
// subtype other than success, a terminal_reason other than completed,
// or an "[API Error" answer fail it); no result after the last init is 3.
func claudeLike(data []byte) Expect { return claudeValues(objects(data)) }

// claudeValues is claudeLike over the capture's values.
func claudeValues(values []gjson.Result) Expect {
	newRun := func() *claudeRun {
		return &claudeRun{framed: map[string]bool{}, deltas: map[string]*strings.Builder{}, deltaMsg: map[string]string{}}
	}
	runs := []*claudeRun{newRun()}
	started := false
	streamMsg := map[string]string{} // parent level → message id of the last message_start
	for _, v := range values {
		r := runs[len(runs)-1]
		switch v.Get("type").String() {
		case "system":
			if st := v.Get("subtype").String(); st == "init" || st == "session_start" {
				if started {
					runs = append(runs, newRun())
				}
				started = true
			}
		case "assistant":
			id := v.Get("message.id").String()
			r.framed[id] = true
			top := v.Get("parent_tool_use_id").String() == ""
			content := v.Get("message.content")
			if content.Type == gjson.String {
				r.texts = append(r.texts, content.Str)
				continue
			}
			for _, b := range content.Array() {
				if b.Get("type").String() != "text" {
					continue
				}
				t := b.Get("text").String()
				r.texts = append(r.texts, t)
				if top && strings.TrimSpace(t) != "" {
					r.lastTop = t
					r.apiErr = strings.HasPrefix(strings.TrimSpace(t), "[API Error")
				}
			}
		case "stream_event":
			ev := v.Get("event")
			level := v.Get("parent_tool_use_id").String()
			switch ev.Get("type").String() {
			case "message_start":
				streamMsg[level] = ev.Get("message.id").String()
			case "content_block_delta":
				if ev.Get("delta.type").String() != "text_delta" {
					continue
				}
				id := streamMsg[level]
				key := id + "/" + ev.Get("index").String()
				b := r.deltas[key]
				if b == nil {
					b = &strings.Builder{}
					r.deltas[key] = b
					r.deltaKeys = append(r.deltaKeys, key)
					r.deltaMsg[key] = id
				}
				b.WriteString(ev.Get("delta.text").String())
			}
		case "result":
			r.hasResult = true
			sub := v.Get("subtype").String()
			term := v.Get("terminal_reason").String()
			r.failed = v.Get("is_error").Bool() || (sub != "success" && sub != "") ||
				(term != "" && term != "completed") || r.apiErr
			r.result = v.Get("result").String()
		}
	}
	// Every text the capture shows; a text repeated (or inside another)
	// cannot be checked for appearing exactly once, so it is left out.
	var all []string
	for _, r := range runs {
		for _, k := range r.deltaKeys {
			if !r.framed[r.deltaMsg[k]] {
				r.texts = append(r.texts, r.deltas[k].String())
			}
		}
		n := 0
		for _, t := range r.texts {
			if strings.TrimSpace(t) != "" {
				n++
				all = append(all, t)
			}
		}
		if n == 0 && strings.TrimSpace(r.result) != "" {
			all = append(all, r.result)
		}
	}
	var e Expect
	joined := strings.Join(all, "\x00")
	for _, t := range all {
		if strings.Count(joined, t) == 1 {
			e.Texts = append(e.Texts, t)
		}
	}
	last := runs[len(runs)-1]
	switch {
	case !last.hasResult:
		e.Exit = 3
	case last.failed:
		e.Exit = 1
	default:
		t := last.result
		if t != "" && t == strings.TrimSpace(t) && (last.lastTop == "" || last.lastTop == t) {
			e.Answer = t
		}
	}
	return e
}
