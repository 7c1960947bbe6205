package claude

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
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
	if !editsFiles(name) {
		return nil
	}
	return editKeys.Read(name, input)
}

// editKeys are the keys of Claude's file tools (and Qwen's and Amp's).
var editKeys = parsers.EditKeys{
	Path: []string{"file_path", "path"}, Old: "old_string", New: "new_string",
	Edits: "edits", Content: "content", Writes: []string{"write", "create"},
}
