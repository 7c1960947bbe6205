package acp

import (
	"slices"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// tool is one tool call, merged from tool_call, tool_call_update and
// permission requests by toolCallId.
type tool struct {
	id, name, title, kind string
	status                string
	input                 string
	inputShown            bool
	content               string // content[] rendered
	terminals             []string
	termOut               string // output read through terminal/output
	rawOutput             string
	shown                 string // output already handed to the session
	exit                  *int
	declined              bool
	ended                 bool
}

// output is the call's output: its content, terminal output, else rawOutput.
func (t *tool) output() string {
	out := t.content
	if t.termOut != "" {
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		out += t.termOut
	}
	if out == "" {
		out = t.rawOutput
	}
	return out
}

// explicitName is the underlying tool name when the agent gives one
// (claude-agent-acp's _meta.claudeCode.toolName, e.g. mcp__acp__Read), or
// a title that is a bare MCP tool name; "" otherwise.
func explicitName(u *parsers.Object) string {
	for _, path := range [...]string{"_meta.claudeCode.toolName", "toolName", "_meta.toolName"} {
		if s := u.Get(path).Str; s != "" {
			return s
		}
	}
	if t := u.Get("title").Str; strings.HasPrefix(t, "mcp__") && !strings.ContainsAny(t, " \t\n") {
		return t
	}
	return ""
}

// toolCall handles tool_call and tool_call_update (and a permission
// request's toolCall): create the call on first sight, then merge. A field
// present replaces the stored value; absent fields leave it.
func (p *parser) toolCall(l *parsers.Line, u *parsers.Object) error {
	if err := p.ensureRun(); err != nil {
		return err
	}
	id := u.Get("toolCallId").String()
	if id == "" {
		id = p.ids.At("tool", l.N)
	}
	t := p.tools[id]
	if t == nil {
		if err := p.entry(l); err != nil {
			return err
		}
		t = &tool{id: id, status: "pending"}
		p.tools[id] = t
		p.merge(t, u)
		p.toolOrder = append(p.toolOrder, id)
		ev := p.out.New(streaming.KindToolStart)
		ev.ID, ev.Name, ev.Title, ev.Input = t.id, t.name, t.title, t.input
		if ev.Name == "" {
			ev.Name = "tool"
		}
		t.inputShown = t.input != ""
		if err := p.out.Push(); err != nil {
			return err
		}
	} else {
		if t.ended {
			// A replayed or late update of a call already ended: shown.
			return nil
		}
		p.merge(t, u)
		if !t.inputShown && t.input != "" {
			t.inputShown = true
			ev := p.out.New(streaming.KindToolInputDelta)
			ev.ID, ev.Text = t.id, t.input
			if err := p.out.Push(); err != nil {
				return err
			}
		}
	}
	switch t.status {
	case "completed", "failed", "cancelled":
		return p.endTool(t)
	}
	return p.showOutput(t)
}

// merge applies the fields present in u to t.
func (p *parser) merge(t *tool, u *parsers.Object) {
	if n := explicitName(u); n != "" {
		t.name = parsers.CleanToolName(n)
	}
	if s := u.Get("title"); s.Type == gjson.String && s.Str != "" {
		t.title = s.Str
	}
	if s := u.Get("kind"); s.Type == gjson.String && s.Str != "" {
		t.kind = s.Str
		if t.name == "" {
			t.name = s.Str
		}
	}
	if s := u.Get("status"); s.Type == gjson.String && s.Str != "" {
		t.status = s.Str
	}
	if in := u.Get("rawInput"); in.Exists() && in.Type != gjson.Null {
		t.input = parsers.JSONText(in)
	}
	if c := u.Get("content"); c.Exists() {
		t.content, t.terminals = p.renderContent(t.id, c)
	}
	if o := u.Get("rawOutput"); o.Exists() && o.Type != gjson.Null {
		t.rawOutput = rawOutputText(o)
		if code := o.Get("exitCode"); code.Type == gjson.Number && t.exit == nil {
			t.exit = parsers.IntOrNil(code)
		}
	}
}

// showOutput hands a running call's output to the session when it grew
// or changed: content replaces the whole array, so the text is a snapshot.
func (p *parser) showOutput(t *tool) error {
	out := t.output()
	if out == "" || out == t.shown {
		return nil
	}
	t.shown = out
	ev := p.out.New(streaming.KindToolOutputDelta)
	ev.ID, ev.Text = t.id, out
	return p.out.Snapshot()
}

func (p *parser) endTool(t *tool) error {
	t.ended = true
	if i := slices.Index(p.toolOrder, t.id); i >= 0 {
		p.toolOrder = slices.Delete(p.toolOrder, i, i+1)
	}
	ev := p.out.New(streaming.KindToolEnd)
	ev.ID, ev.Name, ev.Title, ev.Output, ev.ExitCode = t.id, t.name, t.title, t.output(), t.exit
	switch {
	case t.status == "completed":
		ev.Status = streaming.ToolOK
	case t.status == "cancelled":
		ev.Status = streaming.ToolIncomplete
	case t.declined:
		ev.Status = streaming.ToolDeclined
	default:
		ev.Status = streaming.ToolError
	}
	return p.out.Push()
}

// endOpenTools ends the calls a turn left open: the turn is over
// (unfinished calls are cancelled client-side).
func (p *parser) endOpenTools() error {
	for len(p.toolOrder) > 0 {
		t := p.tools[p.toolOrder[0]]
		p.toolOrder = p.toolOrder[1:]
		if t == nil || t.ended {
			continue
		}
		t.ended = true
		ev := p.out.New(streaming.KindToolEnd)
		ev.ID, ev.Name, ev.Title, ev.Output, ev.ExitCode = t.id, t.name, t.title, t.output(), t.exit
		ev.Status = streaming.ToolIncomplete
		if t.declined {
			ev.Status = streaming.ToolDeclined
		}
		if err := p.out.Push(); err != nil {
			return err
		}
	}
	return nil
}

// renderContent renders a tool call's content[]: text blocks, diffs,
// terminals (whose output comes from terminal/output responses).
func (p *parser) renderContent(toolID string, c gjson.Result) (string, []string) {
	var parts, terms []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	each := func(it gjson.Result) {
		switch it.Get("type").Str {
		case "content":
			add(blockText(it.Get("content")))
		case "diff":
			add(diffText(it))
		case "terminal":
			id := it.Get("terminalId").String()
			if id != "" {
				terms = append(terms, id)
				p.terminals[id] = toolID
			}
		default:
			// The docs' bare {"type":"text",…} shape, and other blocks.
			add(blockText(it))
		}
	}
	if c.IsArray() {
		c.ForEach(func(_, it gjson.Result) bool {
			each(it)
			return true
		})
	} else if c.IsObject() {
		each(c)
	} else if c.Type == gjson.String {
		add(c.Str)
	}
	return strings.Join(parts, "\n"), terms
}

// rawOutputText renders rawOutput: a string, content-like arrays, an
// object's output/stdout/stderr fields, else its JSON.
func rawOutputText(o gjson.Result) string {
	switch {
	case o.Type == gjson.String:
		return o.Str
	case o.IsArray():
		var parts []string
		o.ForEach(func(_, it gjson.Result) bool {
			if t := blockText(it); t != "" {
				parts = append(parts, t)
			}
			return true
		})
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	case o.IsObject():
		var parts []string
		for _, k := range [...]string{"output", "stdout", "stderr", "content", "result", "error", "message"} {
			if s := o.Get(k); s.Type == gjson.String && s.Str != "" {
				parts = append(parts, s.Str)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	}
	return parsers.JSONText(o)
}

// tools is what ACP's tool calls carry: rawInput is the input of the agent
// behind the protocol (Claude Code's, Gemini CLI's, Codex's, …), so the
// subject is read by the keys of each of them; the file changes come as
// the protocol's own diff content, which the parser shows as the call's
// output (a unified diff, read by the decoder).
var tools = parsers.Tools{
	Subject: []string{"command", "cmd", "file_path", "filePath", "path", "notebook_path", "pattern", "url", "query",
		"description", "prompt", "subject", "name", "target_file", "directory", "dir"},
}
