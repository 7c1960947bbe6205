package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// tools is what Codex's tool inputs mean. The parsers build the inputs of
// the built-in tools themselves (shell: command and cwd; apply_patch: its
// changes, or the patch; web_search: query, or url and pattern; a collab
// call: prompt); MCP calls carry their server's arguments.
var tools = parsers.Tools{
	Subject: []string{"command", "cmd", "path", "pattern", "url", "query", "description", "prompt", "name"},
	Edits:   toolEdits,
}

// toolEdits reads the file changes of a call from its input: a change list
// (changes), or a patch (patchEdits) as the input string, the last word of
// a command (apply_patch "<patch>"), or its input, patch, command or cmd
// field.
func toolEdits(_, input, _ string) []streaming.FileEdit {
	in := strings.TrimSpace(input)
	if len(in) < 2 || (in[0] != '{' && in[0] != '"' && in[0] != '[') {
		return nil
	}
	return inputEdits(gjson.Parse(in))
}

func inputEdits(v gjson.Result) []streaming.FileEdit {
	switch {
	case v.Type == gjson.String:
		if strings.Contains(v.Str, "*** Begin Patch") {
			return patchEdits(v.Str)
		}
		return nil
	case v.IsArray():
		if a := v.Array(); len(a) > 0 {
			return inputEdits(a[len(a)-1])
		}
		return nil
	case !v.IsObject():
		return nil
	}
	var f parsers.Object // the input's fields, read once
	f.Reset(v.Raw)
	if ch := f.Get("changes"); ch.Exists() {
		return changeEdits(ch)
	}
	for _, k := range [...]string{"input", "patch", "command", "cmd"} {
		if e := inputEdits(f.Get(k)); e != nil {
			return e
		}
	}
	return nil
}

// changeEdits reads a change list: an array of {path, kind, diff} (kind a
// word, or {type, move_path} in newer builds; an added file's diff is its
// content), or an object keyed by path (the legacy patch_apply_begin:
// {"add":{"content"}}, {"update":{"unified_diff"}}, {"delete":…} or the
// early "delete").
func changeEdits(ch gjson.Result) []streaming.FileEdit {
	var edits []streaming.FileEdit
	ch.ForEach(func(k, c gjson.Result) bool {
		path := c.Get("path").String()
		if path == "" && k.Type == gjson.String {
			path = k.Str // {path: change}
		}
		e := streaming.FileEdit{Path: path, Op: streaming.EditModify}
		switch {
		case c.Get("add").Exists():
			e.Op, e.New = streaming.EditCreate, c.Get("add.content").String()
		case c.Get("delete").Exists() || c.String() == "delete":
			e.Op, e.Old = streaming.EditDelete, c.Get("delete.content").String()
		case c.Get("update").Exists():
			e.Diff, e.To = c.Get("update.unified_diff").String(), c.Get("update.move_path").String()
		default:
			kind := c.Get("kind")
			word := kind.String()
			if kind.IsObject() {
				word, e.To = kind.Get("type").String(), kind.Get("move_path").String()
			}
			if word == "" {
				word = c.Get("type").String()
			}
			diff := c.Get("diff").String()
			if diff == "" {
				diff = c.Get("unified_diff").String()
			}
			switch strings.ToLower(word) {
			case "add", "create":
				e.Op, e.New = streaming.EditCreate, diff
				if diff == "" {
					e.New = c.Get("content").String()
				}
			case "delete", "remove":
				e.Op, e.Diff = streaming.EditDelete, diff
			default:
				e.Diff = diff
			}
		}
		edits = append(edits, e)
		return true
	})
	return edits
}

// patchEdits reads the files of an apply_patch text ("*** Begin Patch",
// "*** Add File: p", "*** Update File: p", "*** Delete File: p", hunks,
// "*** End Patch"): one edit per file, its hunk lines as the diff, an
// added file's lines without their "+" as its new text. Lines before
// "*** Begin Patch" and after "*** End Patch" (a heredoc around it) are
// not the patch's; Windows line endings are read as \n.
func patchEdits(patch string) []streaming.FileEdit {
	if i := strings.Index(patch, "*** Begin Patch"); i >= 0 {
		patch = patch[i:]
	}
	var edits []streaming.FileEdit
	var body strings.Builder
	flush := func() {
		if len(edits) == 0 {
			return
		}
		e := &edits[len(edits)-1]
		switch e.Op {
		case streaming.EditCreate:
			var b strings.Builder
			for _, ln := range strings.SplitAfter(body.String(), "\n") {
				b.WriteString(strings.TrimPrefix(ln, "+"))
			}
			e.New = b.String()
		case streaming.EditModify:
			e.Diff = body.String()
		}
		body.Reset()
	}
	for _, ln := range strings.Split(patch, "\n") {
		ln = strings.TrimSuffix(ln, "\r")
		var op, path string
		switch {
		case strings.HasPrefix(ln, "*** Add File: "):
			op, path = streaming.EditCreate, ln[len("*** Add File: "):]
		case strings.HasPrefix(ln, "*** Update File: "):
			op, path = streaming.EditModify, ln[len("*** Update File: "):]
		case strings.HasPrefix(ln, "*** Delete File: "):
			op, path = streaming.EditDelete, ln[len("*** Delete File: "):]
		case strings.HasPrefix(ln, "*** End Patch"):
			flush()
			return edits
		case strings.HasPrefix(ln, "*** Move to: ") && len(edits) > 0:
			edits[len(edits)-1].To = strings.TrimSpace(ln[len("*** Move to: "):])
			continue
		case strings.HasPrefix(ln, "*** "):
			continue // Begin Patch, End of File
		default:
			if len(edits) > 0 {
				body.WriteString(ln)
				body.WriteByte('\n')
			}
			continue
		}
		flush()
		edits = append(edits, streaming.FileEdit{Path: strings.TrimSpace(path), Op: op})
	}
	flush()
	return edits
}
