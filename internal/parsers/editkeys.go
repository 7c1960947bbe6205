package parsers

import (
	"strings"

	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// EditKeys names the input keys of an agent's file tools, for the agents
// whose edit tools share one shape under their own key names (Claude's
// file_path/old_string/new_string, OpenCode's filePath/oldString/
// newString): the file's path, the text one edit replaces and its
// replacement, a list of such pairs under one path, and the whole content
// of a file written.
type EditKeys struct {
	Path     []string // the keys of the path, most telling first
	Old, New string   // one edit's replaced text and replacement
	Edits    string   // an array of {Old, New} objects, one edit each
	Content  string   // a written file's whole text
	// Writes: a call whose lower-cased tool name holds one of these words
	// writes Content as a new file; another call's Content is no edit.
	Writes []string
}

// Read returns the file changes of a call's input (JSON text) by the
// keys: one edit (Old and New both present), one edit per element of
// Edits, or a created file (Content, for a tool named for writing). Nil
// when the input is no object, names no path or holds none of these.
func (k *EditKeys) Read(name, input string) []streaming.FileEdit {
	in := strings.TrimSpace(input)
	if in == "" || in[0] != '{' {
		return nil
	}
	var f Object // the input's fields, read once
	f.Reset(in)
	var path string
	for _, key := range k.Path {
		if path = f.Get(key).String(); path != "" {
			break
		}
	}
	if path == "" {
		return nil
	}
	oldS, newS := f.Get(k.Old), f.Get(k.New)
	switch edits := f.Get(k.Edits); {
	case oldS.Exists() && newS.Exists():
		return []streaming.FileEdit{{Path: path, Op: streaming.EditModify, Old: oldS.String(), New: newS.String()}}
	case edits.IsArray():
		var out []streaming.FileEdit
		edits.ForEach(func(_, e gjson.Result) bool {
			out = append(out, streaming.FileEdit{Path: path, Op: streaming.EditModify,
				Old: e.Get(k.Old).String(), New: e.Get(k.New).String()})
			return true
		})
		return out
	}
	if c := f.Get(k.Content); c.Type == gjson.String {
		n := strings.ToLower(name)
		for _, w := range k.Writes {
			if strings.Contains(n, w) {
				return []streaming.FileEdit{{Path: path, Op: streaming.EditCreate, New: c.Str}}
			}
		}
	}
	return nil
}
