package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// A rollout's response items: the model's words (messages, reasoning)
// and the user's prompt; its tool calls are in rollouttools.go.

// lineID is the event id of a line's item: its own id, else its line.
func lineID(prefix string, p gjson.Result, n int) string {
	if id := p.Get("id").String(); id != "" {
		return id
	}
	return parsers.LineID(prefix, n)
}

// responseItem handles a response item: an envelope's payload, or a line
// of the bare layout.
func (r *rollout) responseItem(l *parsers.Line, p gjson.Result) error {
	switch typ := p.Get("type").String(); typ {
	case "message":
		role := p.Get("role").String()
		text := contentText(p.Get("content"))
		switch role {
		case "assistant":
			r.turnActive()
			r.turn.Answered = len(r.open) == 0
			return r.o.Message(parsers.Msg{ID: lineID("msg", p, l.N), Role: streaming.RoleAssistant}, streaming.KindTextDelta, text)
		case "user":
			if r.envelope || injected(text) {
				return nil // the prompt comes as event_msg user_message; the rest is injected context
			}
			return r.prompt(l, text)
		}
		return nil // developer and system instructions
	case "reasoning":
		var parts []string
		p.Get("summary").ForEach(func(_, s gjson.Result) bool {
			if t := s.Get("text").String(); t != "" {
				parts = append(parts, t)
			}
			return true
		})
		if len(parts) == 0 {
			p.Get("content").ForEach(func(_, s gjson.Result) bool {
				if t := s.Get("text").String(); t != "" {
					parts = append(parts, t)
				}
				return true
			})
		}
		r.turnActive()
		return r.o.Message(parsers.Msg{ID: lineID("rs", p, l.N), Role: streaming.RoleAssistant}, streaming.KindThinkingDelta, strings.Join(parts, "\n\n"))
	case "function_call", "custom_tool_call", "local_shell_call":
		return r.call(l, typ, p)
	case "function_call_output", "custom_tool_call_output":
		return r.callOutput(p)
	case "web_search_call":
		id := lineID("ws", p, l.N)
		ev := r.o.New(streaming.KindToolStart)
		ev.ID, ev.Name = id, nameWebSearch
		q := p.Get("action.query").String()
		if u := p.Get("action.url").String(); q == "" && u != "" {
			q = u
		}
		ev.Title = q
		if q != "" {
			ev.Input = jsonObject("query", parsers.JSONString(q))
		}
		if err := r.o.Push(); err != nil {
			return err
		}
		end := r.o.New(streaming.KindToolEnd)
		end.ID, end.Status = id, toolStatus(p.Get("status").String(), streaming.ToolOK)
		r.turnActive()
		return r.o.Push()
	}
	return nil // encrypted compaction items, ghost snapshots, …
}

// injected reports the context Codex adds as user messages: environment,
// IDE context, instructions, AGENTS.md.
func injected(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "<") || strings.HasPrefix(t, "# Context from my IDE") ||
		strings.HasPrefix(t, "# AGENTS.md")
}

// contentText joins the text parts of a Responses message.
func contentText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var parts []string
	c.ForEach(func(_, v gjson.Result) bool {
		switch v.Get("type").String() {
		case "input_text", "output_text", "text":
			parts = append(parts, v.Get("text").String())
		case "input_image":
			parts = append(parts, "‹image›")
		}
		return true
	})
	return strings.Join(parts, "\n")
}

// request is what the user asked: the IDE extension puts its context
// (active file, open tabs) before "## My request for Codex:".
func request(msg string) string {
	const mark = "## My request for Codex:"
	if strings.HasPrefix(msg, "# Context from my IDE setup:") {
		if i := strings.Index(msg, mark); i >= 0 {
			return strings.TrimSpace(msg[i+len(mark):])
		}
	}
	return msg
}

// prompt starts a turn with the user's words.
func (r *rollout) prompt(l *parsers.Line, text string) error {
	if !r.started() {
		if err := r.newTurn(); err != nil {
			return err
		}
	}
	return r.o.Message(parsers.Msg{ID: parsers.LineID("user", l.N), Role: streaming.RoleUser}, streaming.KindTextDelta, text)
}
