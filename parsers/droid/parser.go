package droid

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/internal/flat"
	"github.com/agentfmt/agentfmt/parsers/internal/reminder"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

var format = &flat.Format{
	Type:   "type",
	Millis: "timestamp",
	Rules: map[string]flat.Rule{
		"system":      {What: flat.Init, Session: "session_id", Model: "model", CWD: "cwd", Tools: "tools"},
		"message":     {Hook: message},
		"reasoning":   {Hook: reasoning},
		"tool_call":   {Hook: toolCall},
		"tool_result": {Hook: toolResult},
		"error":       {Hook: failure, Keep: true},
		"completion":  {Hook: completion},
	},
	Finish: func(p *flat.Parser) error {
		return p.Out.Status("the stream ended with no completion line (Droid builds before its completion "+
			"event print none): the run's outcome is not in it", streaming.LevelWarning)
	},
}

// message is a whole message. An assistant's is held back one line: the
// error that stops a run repeats it.
func message(p *flat.Parser, l *parsers.Line) error {
	if role := l.Str("role"); role != streaming.RoleAssistant {
		return p.Say(l.Str("id"), role, l.Str("text"))
	}
	return p.Hold(l.Str("id"), streaming.RoleAssistant, l.Str("text"))
}

// reasoning is a whole thinking block.
func reasoning(p *flat.Parser, l *parsers.Line) error {
	id := l.Str("id")
	if id == "" {
		id = p.IDs.Next("reasoning")
	}
	return p.Out.Message(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindThinkingDelta, l.Str("text"))
}

// toolCall starts a call; TodoWrite's list is the plan.
func toolCall(p *flat.Parser, l *parsers.Line) error {
	name := l.Str("toolName")
	if name == "" {
		name = l.Str("toolId")
	}
	id := l.Str("id")
	if id == "" {
		id = p.IDs.Next("call")
	}
	params := l.Get("parameters")
	if err := p.Call(id, name, parsers.JSONText(params), title(name, params)); err != nil {
		return err
	}
	if name == "TodoWrite" {
		return p.Plan(id, params.Get("todos"))
	}
	return nil
}

// title names what a call whose input has no subject of its own is
// about: the files an ApplyPatch changes, how far a TodoWrite list is.
func title(name string, params gjson.Result) string {
	switch name {
	case "ApplyPatch":
		var files []string
		for _, ln := range strings.Split(params.Get("input").String(), "\n") {
			for _, pre := range [...]string{"*** Update File: ", "*** Add File: ", "*** Delete File: "} {
				if f, ok := strings.CutPrefix(ln, pre); ok {
					files = append(files, strings.TrimSpace(f))
				}
			}
		}
		return strings.Join(files, ", ")
	case "TodoWrite":
		n, done := 0, 0
		params.Get("todos").ForEach(func(_, t gjson.Result) bool {
			n++
			if t.Get("status").String() == "completed" {
				done++
			}
			return true
		})
		return fmt.Sprintf("%d todos, %d done", n, done)
	}
	return ""
}

// toolResult ends a call: its value, or its error's message. Execute's
// value ends with the exit code; ApplyPatch's is JSON holding the file's
// new content; a result may end with reminders for the model.
func toolResult(p *flat.Parser, l *parsers.Line) error {
	id := l.Str("id")
	name := p.NameOf(id)
	if name == "" {
		name = l.Str("toolId")
	}
	r := flat.Result{ID: id, Name: name, Output: l.Get("value").String(), Status: streaming.ToolOK}
	if l.Get("isError").Bool() || l.Has("error") {
		r.Status = streaming.ToolError
		if m := l.Get("error").Get("message").String(); m != "" {
			r.Output = m
			if strings.Contains(m, "cancelled") {
				r.Status = streaming.ToolDeclined
			}
		}
	}
	r.ExitCode, r.Display = exitCode(r.Output)
	if r.ExitCode != nil && *r.ExitCode != 0 {
		r.Status = streaming.ToolError
	}
	if v := strings.TrimSpace(r.Output); strings.HasPrefix(v, "{") && gjson.Valid(v) {
		if c := gjson.Get(v, "content"); c.Type == gjson.String {
			r.Display = c.Str
			if gjson.Get(v, "success").Type == gjson.False {
				r.Status = streaming.ToolError
			}
		}
	}
	if r.Display == "" {
		r.Display = reminder.Strip(r.Output)
	}
	return p.End(r)
}

// exitCode reads Execute's last line, "[Process exited with code N]":
// the code, and the output without that line.
func exitCode(out string) (*int, string) {
	const pre = "[Process exited with code "
	s := strings.TrimRight(out, " \r\n")
	i := strings.LastIndex(s, pre)
	if i < 0 || !strings.HasSuffix(s, "]") || strings.Contains(s[i:], "\n") {
		return nil, ""
	}
	n, err := strconv.Atoi(s[i+len(pre) : len(s)-1])
	if err != nil {
		return nil, ""
	}
	return &n, strings.TrimRight(s[:i], " \r\n")
}

// failure is the error that stops a run: it fails it, once (the
// assistant message before it, held back, says the same).
func failure(p *flat.Parser, l *parsers.Line) error {
	msg := l.Str("message")
	if strings.TrimSpace(p.Held()) == strings.TrimSpace(msg) {
		p.Drop()
	} else if err := p.Flush(); err != nil {
		return err
	}
	if err := p.Fail(msg); err != nil {
		return err
	}
	return p.Done(flat.Outcome{Failed: true})
}

// completion is a finished run's last line.
func completion(p *flat.Parser, l *parsers.Line) error {
	if !p.Started() {
		return nil // after the error that ended the run
	}
	return p.Done(flat.Outcome{Answer: l.Str("finalText"), Usage: flat.UsageOf(l.Get("usage")),
		Turns: int(l.Get("numTurns").Int()), DurationMS: l.Get("durationMs").Int()})
}
