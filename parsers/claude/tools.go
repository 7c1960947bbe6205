package claude

import (
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// tools is what Claude Code's tool inputs mean (and Qwen Code's, whose
// tools are Gemini CLI's, and Amp's): the keys that name a call's subject
// (Bash command, Amp's cmd, Read/Write/Edit file_path, Glob and Grep
// pattern and path, NotebookEdit notebook_path, WebFetch url, WebSearch
// query, Task description and prompt, TaskCreate subject, Skill name),
// and the edits of Edit, MultiEdit and Write.
var tools = parsers.Tools{
	Subject: []string{"command", "cmd", "file_path", "path", "notebook_path", "pattern", "url", "query",
		"description", "prompt", "subject", "name"},
	Edits: toolEdits,
}

// editsFiles reports whether a tool's name says it changes files: it
// holds edit, write, replace or create, in any case (Edit, MultiEdit,
// Write, str_replace_based_edit_tool, write_file, create_file).
func editsFiles(name string) bool {
	for _, w := range [...]string{"edit", "write", "replace", "create"} {
		for i := 0; i+len(w) <= len(name); i++ {
			if strings.EqualFold(name[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

// toolEdits reads the file changes of a call: file_path, old_string and
// new_string (Edit; Qwen's edit and replace), file_path and edits[] of
// them (MultiEdit), or a path and content for a tool named for writing or
// creating (Write; Qwen's write_file, Amp's create_file). Only a call named
// for editing, writing, replacing or creating is read: the others (Bash,
// Read, Grep, Task…, most calls) edit nothing, and reading their input
// cost plain a few percent of its time on a Claude log.
func toolEdits(name, input, _ string) []streaming.FileEdit {
	in := strings.TrimSpace(input)
	if in == "" || in[0] != '{' || !editsFiles(name) {
		return nil
	}
	var f parsers.Object // the input's fields, read once
	f.Reset(in)
	path := f.Get("file_path").String()
	if path == "" {
		path = f.Get("path").String()
	}
	if path == "" {
		return nil
	}
	oldS, newS := f.Get("old_string"), f.Get("new_string")
	switch edits := f.Get("edits"); {
	case oldS.Exists() && newS.Exists():
		return []streaming.FileEdit{{Path: path, Op: streaming.EditModify, Old: oldS.String(), New: newS.String()}}
	case edits.IsArray():
		var out []streaming.FileEdit
		edits.ForEach(func(_, e gjson.Result) bool {
			out = append(out, streaming.FileEdit{Path: path, Op: streaming.EditModify,
				Old: e.Get("old_string").String(), New: e.Get("new_string").String()})
			return true
		})
		return out
	}
	if c := f.Get("content"); c.Type == gjson.String {
		if n := strings.ToLower(name); strings.Contains(n, "write") || strings.Contains(n, "create") {
			return []streaming.FileEdit{{Path: path, Op: streaming.EditCreate, New: c.Str}}
		}
	}
	return nil
}
