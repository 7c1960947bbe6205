package opencode

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// toolUse handles a tool part. JSON mode writes a tool only when it has
// ended (state completed or error), so its start and end are emitted
// together. Pending and running states (never written by the CLI, but in
// the schema) only start the call.
func (p *parser) toolUse(part *parsers.Object) error {
	p.stepTools = true
	state := part.Get("state")
	id := part.Get("callID").String()
	if id == "" {
		id = part.Get("id").String()
	}
	if id == "" {
		id = p.ids.Next("call")
	}
	name := parsers.CleanToolName(part.Get("tool").String())
	input := state.Get("input")

	// Every state starts the call: a later one, for a call still open,
	// tells the session what it knows more.
	e := p.out.New(streaming.KindToolStart)
	e.ID, e.Name = id, name
	e.Input = parsers.JSONText(input)
	e.Title = toolTitle(state, input)
	if err := p.out.Push(); err != nil {
		return err
	}

	status := state.Get("status").String()
	if status != "completed" && status != "error" {
		return nil
	}
	e = p.out.New(streaming.KindToolEnd)
	e.ID, e.Name = id, name
	meta := state.Get("metadata")
	if status == "completed" {
		e.Status = streaming.ToolOK
		e.Output = state.Get("output").String()
		if e.Output == "" {
			e.Output = meta.Get("output").String()
		}
	} else {
		e.Output = state.Get("error").String()
		e.Status = streaming.ToolError
		if rejected(e.Output) {
			e.Status = streaming.ToolDeclined
		}
	}
	e.Output += attachments(state.Get("attachments"))
	e.ExitCode = parsers.IntOrNil(meta.Get("exit"))
	if e.ExitCode == nil {
		e.ExitCode = parsers.IntOrNil(meta.Get("exitCode"))
	}
	start, end := state.Get("time.start"), state.Get("time.end")
	if start.Exists() && end.Exists() && end.Int() >= start.Int() {
		e.DurationMS = end.Int() - start.Int()
	}
	if err := p.out.Push(); err != nil {
		return err
	}
	if name == "todowrite" && status == "completed" {
		return p.plan(input.Get("todos"))
	}
	return nil
}

// toolTitle is the tool's own title (state.title: the command line, the
// file, the bash description), else the description given in the input.
func toolTitle(state, input gjson.Result) string {
	if t := state.Get("title").String(); t != "" {
		return t
	}
	return input.Get("description").String()
}

// rejected reports a call refused by the permission system: non-interactive
// runs auto-reject permission requests unless told otherwise.
func rejected(msg string) bool {
	return strings.Contains(msg, "rejected permission") ||
		strings.Contains(msg, "prevents you from using this specific tool call")
}

// attachments summarises the files a tool returned (images as data URLs):
// never their bytes.
func attachments(list gjson.Result) string {
	var b strings.Builder
	list.ForEach(func(_, a gjson.Result) bool {
		mime := a.Get("mime").String()
		url := a.Get("url").String()
		size := len(url)
		if _, data, ok := strings.Cut(url, ";base64,"); ok {
			size = len(data)
		} else if name := a.Get("filename").String(); name != "" {
			b.WriteString("\n[" + name + "]")
			return true
		}
		b.WriteString("\n" + parsers.ImageSummary(mime, size))
		return true
	})
	return b.String()
}

// plan turns todowrite's input into the latest full plan.
func (p *parser) plan(todos gjson.Result) error {
	if !todos.IsArray() {
		return nil
	}
	e := p.out.New(streaming.KindPlan)
	todos.ForEach(func(_, t gjson.Result) bool {
		e.Entries = append(e.Entries, streaming.PlanEntry{
			Text:     t.Get("content").String(),
			Status:   t.Get("status").String(),
			Priority: t.Get("priority").String(),
		})
		return true
	})
	return p.out.Push()
}

// tools is what OpenCode's tool inputs mean (and Kilo's, its fork): the
// keys that name a call's subject (bash command, read/write/edit
// filePath, glob and grep pattern and path, webfetch url, task description
// and prompt), and the edits of edit, multiedit and write.
var tools = parsers.Tools{
	Subject: []string{"command", "filePath", "path", "pattern", "url", "query", "description", "prompt", "name"},
	Edits:   toolEdits,
}

// toolEdits reads the file changes of a call at filePath: oldString to
// newString (edit), edits[] of them (multiedit), or the whole content of
// a tool named for writing (write).
func toolEdits(name, input, _ string) []streaming.FileEdit {
	return editKeys.Read(name, input)
}

// editKeys are the keys of OpenCode's file tools.
var editKeys = parsers.EditKeys{
	Path: []string{"filePath"}, Old: "oldString", New: "newString",
	Edits: "edits", Content: "content", Writes: []string{"write"},
}
