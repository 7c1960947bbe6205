package gemini

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// toolUse is a tool call the model asked for, before it runs. Several can
// arrive in a row (parallel calls); their results come after all of them.
func (p *parser) toolUse(l *parsers.Line) error {
	if err := p.closePara(); err != nil {
		return err
	}
	id := l.Str("tool_id")
	if id == "" {
		id = p.toolIDs.Next("tool")
	}
	name := parsers.CleanToolName(l.Str("tool_name"))
	params := l.Get("parameters")
	e := p.out.New(streaming.KindToolStart)
	e.ID, e.Name = id, name
	e.Input = parsers.JSONText(params)
	e.Title = toolTitle(params)
	return p.out.Push()
}

// toolTitle picks a human title from the parameters Gemini's built-in
// tools use: the command line of run_shell_command, else the file,
// directory, pattern, query or URL the call is about.
func toolTitle(params gjson.Result) string {
	if !params.IsObject() {
		return ""
	}
	for _, k := range [...]string{"command", "file_path", "absolute_path", "dir_path", "path", "pattern", "query", "url"} {
		if v := params.Get(k); v.Type == gjson.String && v.Str != "" {
			return v.Str
		}
	}
	return ""
}

// toolResult ends the call with the same tool_id. Its output is the
// tool's display text (absent for edits and writes, "" for read_file).
func (p *parser) toolResult(l *parsers.Line) error {
	if err := p.closePara(); err != nil {
		return err
	}
	id := l.Str("tool_id")
	if id == "" {
		// A result without an id cannot be paired: the session starts it
		// implicitly.
		id = p.toolIDs.Next("tool")
	}
	// The call's name, parent and input are the session's (Call).
	e := p.out.New(streaming.KindToolEnd)
	e.ID = id
	e.Output = l.Str("output")
	switch l.Str("status") {
	case "success":
		e.Status = streaming.ToolOK
	default:
		e.Status = streaming.ToolError
		errType := l.Path("error.type").String()
		if errType == "policy_violation" {
			e.Status = streaming.ToolDeclined
		}
		if msg := l.Path("error.message").String(); msg != "" && !strings.Contains(e.Output, msg) {
			if e.Output == "" {
				e.Output = msg
			} else {
				e.Output += "\n" + msg
			}
		}
		if e.Output == "" {
			e.Output = errType
		}
	}
	return p.out.Push()
}

// tools is what Gemini CLI's tool inputs mean: the keys that name a
// call's subject (run_shell_command command, read_file and write_file
// file_path, list_directory path, glob and search_file_content pattern,
// web_fetch url and prompt, google_web_search query), and the edits of
// write_file and replace.
var tools = parsers.Tools{
	Subject: []string{"command", "file_path", "path", "pattern", "url", "query", "description", "prompt", "name",
		"directory", "dir"},
	Edits: toolEdits,
}

// toolEdits are the file changes of write_file (its content) and replace
// (old_string to new_string) calls, at file_path (absolute_path in older
// versions).
func toolEdits(name, input, _ string) []streaming.FileEdit {
	if name != "write_file" && name != "replace" {
		return nil
	}
	return editKeys.Read(name, input)
}

var editKeys = parsers.EditKeys{Path: []string{"file_path", "absolute_path"}, Old: "old_string", New: "new_string",
	Content: "content", Writes: []string{"write"}}
