package pi

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// toolStart starts a tool call once its arguments are whole: at the
// model's toolcall_end, at the assistant message_end, or at
// tool_execution_*, whichever comes first (the others start it again,
// which the session takes as what it knew).
func (p *parser) toolStart(id, name string, args gjson.Result) error {
	if id == "" {
		id = p.ids.Next("call")
	}
	e := p.out.New(streaming.KindToolStart)
	e.ID, e.Name = id, parsers.CleanToolName(name)
	e.Input = parsers.JSONText(args)
	return p.out.Push()
}

// toolUpdate is the output so far of a running call (partialResult holds
// all of it, not what is new): a snapshot.
func (p *parser) toolUpdate(l *parsers.Line) error {
	id := l.Str("toolCallId")
	if err := p.toolStart(id, l.Str("toolName"), l.Get("args")); err != nil {
		return err
	}
	text := contentText(l.Get("partialResult").Get("content"))
	if text == "" {
		return nil
	}
	e := p.out.New(streaming.KindToolOutputDelta)
	e.ID, e.Text = id, text
	return p.out.Snapshot()
}

// toolEnd is an execution's end: its result, failed when isError.
func (p *parser) toolEnd(l *parsers.Line) error {
	id, name := l.Str("toolCallId"), l.Str("toolName")
	if err := p.toolStart(id, name, l.Get("args")); err != nil {
		return err
	}
	return p.endTool(id, name, l.Get("result"), l.Get("isError").Bool())
}

// endTool ends a call with a result ({content, details}, or a toolResult
// message, which has the same content).
func (p *parser) endTool(id, name string, result gjson.Result, isError bool) error {
	e := p.out.New(streaming.KindToolEnd)
	e.ID, e.Name = id, parsers.CleanToolName(name)
	e.Output = contentText(result.Get("content"))
	if e.Output == "" && result.Type == gjson.String {
		e.Output = result.Str
	}
	e.Status = streaming.ToolOK
	if isError {
		e.Status = streaming.ToolError
	}
	return p.out.Push()
}

// bashExecution is the user's own `!command`: a bash call started and
// ended at once.
func (p *parser) bashExecution(m gjson.Result) error {
	id := p.ids.Next("bash")
	e := p.out.New(streaming.KindToolStart)
	e.ID, e.Name = id, "bash"
	e.Input = `{"command":` + m.Get("command").Raw + `}`
	if !m.Get("command").Exists() {
		e.Input = ""
	}
	if err := p.out.Push(); err != nil {
		return err
	}
	e = p.out.New(streaming.KindToolEnd)
	e.ID, e.Name, e.Output = id, "bash", m.Get("output").Str
	e.ExitCode = parsers.IntOrNil(m.Get("exitCode"))
	e.Status = streaming.ToolOK
	switch {
	case m.Get("cancelled").Bool():
		e.Status = streaming.ToolIncomplete
	case e.ExitCode != nil && *e.ExitCode != 0:
		e.Status = streaming.ToolError
	}
	return p.out.Push()
}

// tools is what pi's tool inputs mean (docs/formats/pi.md): the keys that
// name a call's subject (bash command; grep and find pattern; read,
// edit, write and ls path), and the edits of edit and write.
var tools = parsers.Tools{
	Subject: []string{"command", "pattern", "path", "url", "query"},
	Edits:   toolEdits,
}

// toolEdits reads the file changes of edit, {path, edits:[{oldText,
// newText}]} or the older {path, oldText, newText}, and of write, {path,
// content}.
func toolEdits(name, input, _ string) []streaming.FileEdit {
	if name != "edit" && name != "write" {
		return nil
	}
	return editKeys.Read(name, input)
}

var editKeys = parsers.EditKeys{Path: []string{"path"}, Old: "oldText", New: "newText", Edits: "edits",
	Content: "content", Writes: []string{"write"}}
