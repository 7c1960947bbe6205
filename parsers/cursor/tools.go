package cursor

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// call is one tool_call line, read.
type call struct {
	id      string
	variant string       // the tool_call key: shellToolCall, readToolCall, …
	v       gjson.Result // its value: {args, result?}
	args    gjson.Result
	name    string
	input   string
	title   string
}

// readCall finds the variant of a tool_call line. The tool_call object has
// one *ToolCall key (newer builds add hookAdditionalContexts, toolCallId,
// startedAtMs beside it), or a "function" key ({name, arguments}).
func readCall(l *parsers.Line) call {
	tc := l.Get("tool_call")
	var c call
	var fallbackKey string
	var fallback gjson.Result
	tc.ForEach(func(k, v gjson.Result) bool {
		if !v.IsObject() {
			return true
		}
		if strings.HasSuffix(k.Str, "ToolCall") || k.Str == "function" {
			c.variant, c.v = k.Str, v
			return false
		}
		if fallbackKey == "" && v.Get("args").Exists() {
			fallbackKey, fallback = k.Str, v
		}
		return true
	})
	if c.variant == "" {
		c.variant, c.v = fallbackKey, fallback
	}
	c.id = l.Str("call_id")
	if c.id == "" {
		c.id = tc.Get("toolCallId").Str
	}
	c.args = c.v.Get("args")
	if c.id == "" {
		c.id = c.args.Get("toolCallId").Str
	}
	c.describe()
	return c
}

// describe sets the call's name, input and title from its variant.
func (c *call) describe() {
	a := c.args
	c.input = parsers.JSONText(a)
	switch c.variant {
	case "function":
		c.name = c.v.Get("name").Str
		if args := c.v.Get("arguments"); args.Type == gjson.String && jsonscan.ValidString(args.Str) {
			c.input = args.Str
		} else {
			c.input = parsers.JSONText(args)
		}
	case "mcpToolCall":
		tool := first(a, "toolName", "name")
		if prov := a.Get("providerIdentifier").Str; prov != "" && tool != "" && !strings.HasPrefix(tool, "mcp__") && !strings.Contains(tool, prov) {
			tool = prov + "." + tool
		}
		c.name = parsers.CleanToolName(tool)
		if in := a.Get("args"); in.Exists() {
			c.input = parsers.JSONText(in)
		}
	case "":
		c.name = "tool"
	default:
		c.name = strings.TrimSuffix(c.variant, "ToolCall")
	}
	if c.name == "" {
		c.name = strings.TrimSuffix(c.variant, "ToolCall")
		if c.name == "" {
			c.name = "tool"
		}
	}
	switch c.variant {
	case "grepToolCall":
		c.title = first(a, "pattern", "query")
		if p := first(a, "path", "targetDirectory"); p != "" && c.title != "" {
			c.title += " in " + p
		}
	case "globToolCall":
		c.title = first(a, "globPattern", "pattern", "glob")
		if p := first(a, "targetDirectory", "path"); p != "" && c.title != "" {
			c.title += " in " + p
		}
	default:
		c.title = first(a, "command", "path", "filePath", "pattern", "query", "url", "description")
	}
	if c.title == "" {
		c.title = first(c.v, "description")
	}
}

// first returns the first non-empty string field of v among keys.
func first(v gjson.Result, keys ...string) string {
	for _, k := range keys {
		if s := v.Get(k); s.Type == gjson.String && s.Str != "" {
			return s.Str
		}
	}
	return ""
}

// call closes the text a tool call's line follows and reads the call.
func (p *parser) call(l *parsers.Line) (call, error) {
	c := readCall(l)
	if c.id == "" {
		c.id = p.ids.At("tool", l.N)
	}
	return c, p.closeText()
}

func (p *parser) toolStarted(l *parsers.Line) error {
	c, err := p.call(l)
	if err != nil {
		return err
	}
	if err := p.startTool(l, &c); err != nil {
		return err
	}
	return p.todoPlan(l, c.args)
}

func (p *parser) startTool(l *parsers.Line, c *call) error {
	p.tools[c.id] = l.Get("timestamp_ms").Int()
	ev := p.out.New(streaming.KindToolStart)
	ev.ID, ev.Name, ev.Input, ev.Title = c.id, c.name, c.input, c.title
	return p.out.Push()
}

func (p *parser) toolCompleted(l *parsers.Line) error {
	c, err := p.call(l)
	if err != nil {
		return err
	}
	started, open := p.tools[c.id]
	if !open {
		// A completion without its start (a stream joined mid-way): start
		// it here, so the call keeps its name and input.
		if err := p.startTool(l, &c); err != nil {
			return err
		}
		started = 0
	}
	delete(p.tools, c.id)
	o := outcomeOf(&c)
	ev := p.out.New(streaming.KindToolEnd)
	ev.ID, ev.Name, ev.Status, ev.Output, ev.ExitCode, ev.DurationMS = c.id, c.name, o.status, o.output, o.exit, o.ms
	if ev.DurationMS == 0 && started > 0 {
		if end := l.Get("timestamp_ms").Int(); end > started {
			ev.DurationMS = end - started
		}
	}
	if err := p.out.Push(); err != nil {
		return err
	}
	if todos := c.v.Get("result.success.todos"); todos.IsArray() {
		return p.todoPlan(l, c.v.Get("result.success"))
	}
	return nil
}

// tools is what Cursor's tool arguments mean: the keys that name a call's
// subject (shell command, read/edit/write/ls path, grep pattern, semSearch
// query, the target_file of older builds), and the new text of a write.
// An edit's diff comes in its result, which the decoder reads (a unified
// diff as the output).
var tools = parsers.Tools{
	Subject: []string{"command", "path", "pattern", "url", "query", "description", "prompt", "name",
		"target_file", "directory"},
	Edits: toolEdits,
}

// toolEdits is the whole new text of a file a write makes: path and
// fileText (content in function calls).
func toolEdits(name, input, _ string) []streaming.FileEdit {
	in := strings.TrimSpace(input)
	if in == "" || in[0] != '{' {
		return nil
	}
	if n := strings.ToLower(name); !strings.Contains(n, "write") && !strings.Contains(n, "create") {
		return nil
	}
	var f parsers.Object
	f.Reset(in)
	path := f.Str("path")
	text := f.Get("fileText")
	if !text.Exists() {
		text = f.Get("content")
	}
	if path == "" || text.Type != gjson.String {
		return nil
	}
	return []streaming.FileEdit{{Path: path, Op: streaming.EditCreate, New: text.Str}}
}
