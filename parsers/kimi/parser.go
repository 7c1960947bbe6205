package kimi

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/internal/flat"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

var format = &flat.Format{
	Type: "role",
	Rules: map[string]flat.Rule{
		"assistant": {Hook: assistant},
		"tool":      {Hook: result},
		"user":      {What: flat.Message, Role: "role", Text: "content"},
		"meta":      {What: flat.Init, Hook: meta},
	},
	Finish: finish,
}

// finish ends the run at the end of input, or where another begins: a
// run with every call answered is done; one with a call unanswered was
// cut.
func finish(p *flat.Parser) error {
	if p.OpenCalls() > 0 {
		return nil
	}
	return p.Done(flat.Outcome{})
}

// meta is Kimi 2's bookkeeping: its version line begins a run (a log of
// several runs); the hint to resume says nothing to show.
func meta(p *flat.Parser, l *parsers.Line) error {
	switch {
	case l.Str("type") != "system.version":
		return nil
	case p.Started():
		return again(p)
	}
	return p.Begin("", "", "", nil)
}

// again ends the run so far and begins another.
func again(p *flat.Parser) error {
	if err := finish(p); err != nil {
		return err
	}
	return p.Begin("", "", "", nil)
}

// assistant is one step's whole message: its thinking and text parts
// (or a text, with --final-message-only), then its tool calls.
//
// A call id answered before is another run's: Kimi 1 writes nothing
// between runs, so a log of two runs shows it there.
func assistant(p *flat.Parser, l *parsers.Line) error {
	if id := l.Path("tool_calls.0.id").String(); id != "" && p.Answered(id) {
		if err := again(p); err != nil {
			return err
		}
	}
	id := p.IDs.Next("step")
	c := l.Get("content")
	if c.Type == gjson.String {
		if err := p.Delta(id, streaming.KindTextDelta, c.Str); err != nil {
			return err
		}
	}
	var err error
	c.ForEach(func(_, part gjson.Result) bool {
		switch part.Get("type").String() {
		case "think":
			err = p.Delta(id, streaming.KindThinkingDelta, part.Get("think").String())
		case "text":
			err = p.Delta(id, streaming.KindTextDelta, part.Get("text").String())
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	l.Get("tool_calls").ForEach(func(_, tc gjson.Result) bool {
		f := tc.Get("function")
		input := f.Get("arguments").String()
		if !gjson.Valid(input) {
			input = f.Get("arguments").Raw
		}
		err = p.Call(tc.Get("id").String(), f.Get("name").String(), input, "")
		return err == nil
	})
	if err != nil {
		return err
	}
	return p.Close()
}

// result is a tool's result: its text parts, without Kimi's
// <system>…</system> note to the model, which says whether it failed.
func result(p *flat.Parser, l *parsers.Line) error {
	r := flat.Result{ID: l.Str("tool_call_id"), Status: streaming.ToolOK}
	var out []string
	note := ""
	add := func(t string) {
		if s := strings.TrimSpace(t); strings.HasPrefix(s, "<system>") && strings.HasSuffix(s, "</system>") {
			note = strings.TrimSpace(s[len("<system>") : len(s)-len("</system>")])
			return
		}
		out = append(out, t)
	}
	c := l.Get("content")
	if c.Type == gjson.String {
		add(c.Str)
	}
	c.ForEach(func(_, part gjson.Result) bool {
		if t := part.Get("text"); t.Type == gjson.String {
			add(t.Str)
		}
		return true
	})
	r.Output = strings.Join(out, "\n")
	if strings.HasPrefix(note, "ERROR") {
		r.Status = streaming.ToolError
		if strings.TrimSpace(r.Output) == "" {
			r.Output = note
		}
	}
	return p.End(r)
}
