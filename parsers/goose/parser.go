package goose

import (
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/internal/flat"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

var format = &flat.Format{
	Type: "type",
	Rules: map[string]flat.Rule{
		"message":      {Hook: message},
		"notification": {Hook: notification},
		"error":        {What: flat.Fail, Text: "error"},
		"complete":     {Hook: complete},
	},
}

// providerError begins the text goose writes as the answer when the
// provider failed: a run whose last message says so has failed.
const providerError = "Ran into this error:"

// state is what goose's hooks keep: whether the last assistant message
// was a provider failure, and its first line.
type state struct{ failure string }

func stateOf(p *flat.Parser) *state {
	s, ok := p.Data.(*state)
	if !ok {
		s = &state{}
		p.Data = s
	}
	return s
}

// message is one agent event: a chunk of a message (its id shared with
// the chunks before it), tool requests, tool responses.
func message(p *flat.Parser, l *parsers.Line) error {
	m := l.Get("message")
	if c := m.Get("created"); c.Type == gjson.Number && c.Num > 0 {
		p.Out.Time = time.Unix(c.Int(), 0)
	}
	id, role := m.Get("id").String(), m.Get("role").String()
	if id == "" && role == streaming.RoleUser {
		id = p.IDs.Next("user")
	}
	st := stateOf(p)
	var err error
	m.Get("content").ForEach(func(_, c gjson.Result) bool {
		err = item(p, st, id, role, c)
		return err == nil
	})
	return err
}

// item is one content item of a message.
func item(p *flat.Parser, st *state, id, role string, c gjson.Result) error {
	switch typ := c.Get("type").String(); typ {
	case "text":
		t := c.Get("text").String()
		if role == streaming.RoleAssistant {
			if strings.HasPrefix(strings.TrimSpace(t), providerError) {
				st.failure, _, _ = strings.Cut(strings.TrimSpace(t), "\n")
			} else if strings.TrimSpace(t) != "" && !p.InMessage(id) {
				st.failure = ""
			}
		}
		return p.DeltaAs(id, role, streaming.KindTextDelta, t)
	case "thinking":
		return p.DeltaAs(id, role, streaming.KindThinkingDelta, c.Get("thinking").String())
	case "redactedThinking":
		return nil
	case "toolRequest":
		call := c.Get("toolCall")
		v := call.Get("value")
		if err := p.Call(c.Get("id").String(), v.Get("name").String(), parsers.JSONText(v.Get("arguments")), ""); err != nil {
			return err
		}
		if call.Get("status").String() == "error" {
			return p.End(flat.Result{ID: c.Get("id").String(), Output: call.Get("error").String(), Status: streaming.ToolError})
		}
		return nil
	case "toolResponse":
		return response(p, c)
	case "error":
		return p.Fail(c.Get("message").String())
	case "actionRequired", "toolConfirmationRequest":
		return p.Out.Status("goose asks for permission: "+c.Get("toolName").String()+c.Get("data.toolName").String(),
			streaming.LevelWarning)
	case "systemNotification":
		return p.Out.Status(c.Get("msg").String()+c.Get("message").String(), streaming.LevelInfo)
	default:
		return p.Out.Unknown("message."+typ, c.Raw)
	}
}

// response is a tool's result: its content's text, or a shell's
// structured stdout; failed when its status or isError says so.
func response(p *flat.Parser, c gjson.Result) error {
	res := c.Get("toolResult")
	v := res.Get("value")
	content := v
	if v.IsObject() {
		content = v.Get("content")
	}
	var b strings.Builder
	content.ForEach(func(_, part gjson.Result) bool {
		if t := part.Get("text"); t.Type == gjson.String {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t.Str)
		}
		return true
	})
	r := flat.Result{ID: c.Get("id").String(), Output: b.String(), Status: streaming.ToolOK}
	if sc := v.Get("structuredContent"); sc.IsObject() {
		if r.Output == "" {
			r.Output = sc.Get("stdout").String()
		}
		r.ExitCode = parsers.IntOrNil(sc.Get("exit_code"))
	}
	if res.Get("status").String() == "error" || v.Get("isError").Bool() || r.ExitCode != nil && *r.ExitCode != 0 {
		r.Status = streaming.ToolError
		if r.Output == "" {
			r.Output = res.Get("error").String()
		}
	}
	return p.End(r)
}

// notification is an extension's log or progress message.
func notification(p *flat.Parser, l *parsers.Line) error {
	text := l.Str("message")
	for _, path := range [...]string{"log.message", "progress.message", "data.message"} {
		if text == "" {
			text = l.Path(path).String()
		}
	}
	if ext := l.Str("extension_id"); ext != "" && text != "" {
		text = ext + ": " + text
	}
	return p.Out.Status(text, streaming.LevelVerbose)
}

// complete is the last line: the run's figures. A run whose last
// assistant message was a provider failure has failed.
func complete(p *flat.Parser, l *parsers.Line) error {
	o := flat.Outcome{Usage: flat.UsageOf(gjson.Parse(l.JSON))}
	if f := stateOf(p).failure; f != "" && p.Failed() == "" {
		o.Failed, o.Reason = true, f
	}
	return p.Done(o)
}
