package cline

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// tools is what Cline's tool messages mean (and Kilo's and Roo's): the
// keys that name a call's subject (a command, a file's path, a browser's
// url, an MCP tool's name), and the edits of a file tool whose content is
// SEARCH/REPLACE blocks or a new file's text.
var tools = parsers.Tools{
	Subject: []string{"command", "path", "url", "query", "description", "prompt", "name"},
	Edits:   toolEdits,
}

// toolEdits reads the file changes of a file tool: path and content of
// SEARCH/REPLACE blocks (editedExistingFile), one region each; or path and
// the whole content of a tool named for writing or creating
// (newFileCreated, write_to_file).
func toolEdits(name, input, _ string) []streaming.FileEdit {
	in := strings.TrimSpace(input)
	if in == "" || in[0] != '{' {
		return nil
	}
	var f parsers.Object
	f.Reset(in)
	path, content := f.Get("path").String(), f.Get("content")
	if path == "" || content.Type != gjson.String {
		return nil
	}
	if e := searchReplace(path, content.Str); e != nil {
		return e
	}
	if n := strings.ToLower(name); strings.Contains(n, "write") || strings.Contains(n, "create") {
		return []streaming.FileEdit{{Path: path, Op: streaming.EditCreate, New: content.Str}}
	}
	return nil
}

// searchReplace reads Cline's SEARCH/REPLACE blocks ("------- SEARCH",
// "=======", "+++++++ REPLACE"; or <<<<<<< and >>>>>>> markers).
func searchReplace(path, content string) []streaming.FileEdit {
	if !strings.Contains(content, "SEARCH\n") {
		return nil
	}
	var out []streaming.FileEdit
	var old, nw strings.Builder
	state := 0 // 0 outside, 1 search, 2 replace
	for _, l := range strings.Split(content, "\n") {
		switch {
		case strings.HasSuffix(l, " SEARCH") && (strings.HasPrefix(l, "-------") || strings.HasPrefix(l, "<<<<<<<")):
			state = 1
			old.Reset()
			nw.Reset()
		case l == "=======" && state == 1:
			state = 2
		case strings.HasSuffix(l, " REPLACE") && (strings.HasPrefix(l, "+++++++") || strings.HasPrefix(l, ">>>>>>>")) && state == 2:
			out = append(out, streaming.FileEdit{Path: path, Op: streaming.EditModify,
				Old: strings.TrimSuffix(old.String(), "\n"), New: strings.TrimSuffix(nw.String(), "\n")})
			state = 0
		case state == 1:
			old.WriteString(l + "\n")
		case state == 2:
			nw.WriteString(l + "\n")
		}
	}
	return out
}
