package antigravity

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// step holds the JSON text of a step_update's fields, read in one walk.
type step struct {
	conv, index, state, typ, toolName, toolInfo string
	text, thinking, duration, usage             string
	errorText, message                          string
}

func readStep(l *parsers.Line, raw string) step {
	var s step
	for f := l.FieldsOf(raw); f.Next(); {
		switch f.Key {
		case "conversation_id":
			s.conv = f.Raw
		case "step_index":
			s.index = f.Raw
		case "state":
			s.state = f.Raw
		case "step_type":
			s.typ = f.Raw
		case "tool_name":
			s.toolName = f.Raw
		case "tool_info":
			s.toolInfo = f.Raw
		case "text_delta":
			s.text = f.Raw
		case "thinking_delta":
			s.thinking = f.Raw
		case "duration_seconds":
			s.duration = f.Raw
		case "usage":
			s.usage = f.Raw
		case "error":
			s.errorText = f.Raw
		case "message":
			s.message = f.Raw
		}
	}
	return s
}

// text is what a system or error step says: its text_delta, message or
// error (a string or an object's message). The notes do not give these
// steps' fields, so each is tried.
func (s *step) say(l *parsers.Line) string {
	for _, raw := range [...]string{s.text, s.message, s.errorText} {
		if strings.HasPrefix(raw, "{") {
			if m := l.Field(raw, "message").String(); m != "" {
				return m
			}
			continue
		}
		if t := l.Text(raw); t != "" {
			return t
		}
	}
	return ""
}

// toolStep is a tool step: ACTIVE starts the call, DONE ends it with its
// output, ERROR with its error. A terminal update of a step never seen
// ACTIVE (the docs samples) starts it first, with its parameters.
func (p *parser) toolStep(l *parsers.Line, s *step) error {
	if err := p.closeMsg(); err != nil {
		return err
	}
	id := p.stepID(l, s)
	var name, params, output, errMsg string
	for f := l.FieldsOf(s.toolInfo); f.Next(); {
		switch f.Key {
		case "name":
			name = l.Text(f.Raw)
		case "parameters":
			params = f.Raw
		case "output":
			output = l.Text(f.Raw)
		case "error":
			if strings.HasPrefix(f.Raw, "{") {
				errMsg = l.Field(f.Raw, "message").String()
			} else {
				errMsg = l.Text(f.Raw)
			}
		}
	}
	if n := l.Text(s.toolName); n != "" {
		name = n
	}
	if name == "" {
		name = "tool"
	}
	state := l.Text(s.state)
	if state == "ACTIVE" || p.tool != id {
		if state == "ACTIVE" && p.tool == id {
			return nil // reported ACTIVE again
		}
		p.tool = strings.Clone(id)
		e := p.out.New(streaming.KindToolStart)
		e.ID, e.Name = id, name
		if strings.HasPrefix(params, "{") {
			e.Input = params
		}
		if err := p.out.Push(); err != nil {
			return err
		}
		if state == "ACTIVE" {
			return nil
		}
	}
	if !terminal(state) {
		return nil
	}
	p.tool = ""
	e := p.out.New(streaming.KindToolEnd)
	e.ID, e.Name = id, name
	e.DurationMS = seconds(s.duration)
	e.Status = streaming.ToolOK
	e.Output = output
	if state == "ERROR" {
		e.Status = streaming.ToolError
		if errMsg != "" {
			e.Output = errMsg
		}
	}
	return p.out.Push()
}

// tools is what agy's tool parameters mean: the PascalCase parameters
// that say what a call is about (docs/formats/antigravity.md), most
// telling first (a CommandLine, not the Cwd before it), then the keys of
// MCP tools.
var tools = parsers.Tools{
	Subject: []string{"CommandLine", "AbsolutePath", "DirectoryPath", "Pattern", "SearchDirectory",
		"command", "path", "pattern", "url", "query", "description", "prompt", "name"},
}
