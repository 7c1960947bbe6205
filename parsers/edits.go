package parsers

import (
	"strings"

	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Edits finds the file changes a tool call makes, from its name, its input
// (JSON text) and its output, so that renderers can show diffs without
// knowing any agent's key names. Shapes, by input keys:
//
//   - file_path + old_string + new_string (Claude Edit), filePath +
//     oldString + newString (OpenCode edit): one modified region;
//   - file_path + edits[] of old_string/new_string (Claude MultiEdit);
//   - file_path/filePath + content (Claude Write, OpenCode write), path +
//     fileText (Cursor write), for a tool whose name says it writes or
//     creates: the whole new text of the file;
//   - path + content of SEARCH/REPLACE blocks (Cline): one region each;
//   - changes (Codex file_change / apply_patch): an array of {path, kind,
//     diff} or an object keyed by path of {add:{content}},
//     {update:{unified_diff}}, {delete:…};
//   - a Codex patch ("*** Begin Patch" … "*** End Patch") as the input
//     string, its input or patch field, or the last word of its command;
//   - otherwise, an output that is a unified diff (ACP diffs, Cursor):
//     one edit per file of it.
//
// It returns nil for a call that edits nothing.
func Edits(name, input, output string) []streaming.FileEdit {
	in := strings.TrimSpace(input)
	if len(in) > 1 && (in[0] == '{' || in[0] == '"' || in[0] == '[') {
		if e := inputEdits(name, gjson.Parse(in)); e != nil {
			return e
		}
	}
	if strings.HasPrefix(output, "--- ") || strings.Contains(output, "\n+++ ") {
		return diffEdits(output)
	}
	return nil
}

func inputEdits(name string, v gjson.Result) []streaming.FileEdit {
	if v.Type == gjson.String {
		return patchEdits(v.Str)
	}
	if v.IsArray() { // a command: apply_patch "<patch>"
		a := v.Array()
		if len(a) > 0 {
			return patchEdits(a[len(a)-1].String())
		}
		return nil
	}
	if !v.IsObject() {
		return nil
	}
	var fields Object // the input's, read once
	fields.Reset(v.Raw)
	first := func(keys ...string) gjson.Result {
		for _, k := range keys {
			if r := fields.Get(k); r.Exists() {
				return r
			}
		}
		return gjson.Result{}
	}
	path := first("file_path", "filePath", "path").String()
	oldS, newS := first("old_string", "oldString"), first("new_string", "newString")
	switch {
	case path != "" && oldS.Exists() && newS.Exists():
		return []streaming.FileEdit{{Path: path, Op: streaming.EditModify, Old: oldS.String(), New: newS.String()}}
	case path != "" && first("edits").IsArray():
		var out []streaming.FileEdit
		for _, e := range first("edits").Array() {
			o, n := e.Get("old_string"), e.Get("new_string")
			if !o.Exists() {
				o, n = e.Get("oldString"), e.Get("newString")
			}
			out = append(out, streaming.FileEdit{Path: path, Op: streaming.EditModify, Old: o.String(), New: n.String()})
		}
		return out
	case path != "" && first("content", "fileText").Type == gjson.String:
		content := first("content", "fileText").Str
		if e := searchReplace(path, content); e != nil {
			return e
		}
		// Other tools carry a path and content too (a read's result): only
		// a tool named for writing writes it.
		if n := strings.ToLower(name); strings.Contains(n, "write") || strings.Contains(n, "create") {
			return []streaming.FileEdit{{Path: path, Op: streaming.EditCreate, New: content}}
		}
		return nil
	}
	if ch := first("changes"); ch.Exists() {
		return changeEdits(ch)
	}
	for _, k := range [...]string{"input", "patch", "command", "cmd"} {
		if r := fields.Get(k); r.Exists() {
			if e := inputEdits(name, r); e != nil {
				return e
			}
		}
	}
	return nil
}

// changeEdits reads Codex's changes: [{path, kind, diff}] or
// {path: {add|update|delete: …}}.
func changeEdits(ch gjson.Result) []streaming.FileEdit {
	var out []streaming.FileEdit
	op := func(kind string) string {
		switch strings.ToLower(kind) {
		case "add", "create":
			return streaming.EditCreate
		case "delete", "remove":
			return streaming.EditDelete
		}
		return streaming.EditModify
	}
	if ch.IsArray() {
		for _, c := range ch.Array() {
			e := streaming.FileEdit{Path: c.Get("path").String(), Op: op(c.Get("kind").String())}
			if k := c.Get("kind.type"); k.Exists() { // newer builds: kind is {type, move_path}
				e.Op = op(k.String())
			}
			e.Diff = c.Get("diff").String()
			out = append(out, e)
		}
		return out
	}
	ch.ForEach(func(k, c gjson.Result) bool {
		e := streaming.FileEdit{Path: k.String()}
		switch {
		case c.Get("add").Exists():
			e.Op, e.New = streaming.EditCreate, c.Get("add.content").String()
		case c.Get("delete").Exists() || c.String() == "delete":
			e.Op, e.Old = streaming.EditDelete, c.Get("delete.content").String()
		default:
			e.Op, e.Diff = streaming.EditModify, c.Get("update.unified_diff").String()
		}
		out = append(out, e)
		return true
	})
	return out
}

// patchEdits reads a Codex patch: "*** Add File: p" with + lines, "***
// Update File: p" with hunks, "*** Delete File: p".
func patchEdits(patch string) []streaming.FileEdit {
	if !strings.Contains(patch, "*** Begin Patch") {
		return nil
	}
	var out []streaming.FileEdit
	var cur *streaming.FileEdit
	var body strings.Builder
	flush := func() {
		if cur == nil {
			return
		}
		s := strings.TrimSuffix(body.String(), "\n")
		if cur.Op == streaming.EditCreate {
			var n strings.Builder
			for _, l := range strings.Split(s, "\n") {
				n.WriteString(strings.TrimPrefix(l, "+"))
				n.WriteByte('\n')
			}
			cur.New = n.String()
		} else if cur.Op == streaming.EditModify {
			cur.Diff = s
		}
		out = append(out, *cur)
		cur = nil
		body.Reset()
	}
	for _, l := range strings.Split(patch, "\n") {
		l = strings.TrimSuffix(l, "\r")
		switch {
		case strings.HasPrefix(l, "*** Add File: "):
			flush()
			cur = &streaming.FileEdit{Path: l[len("*** Add File: "):], Op: streaming.EditCreate}
		case strings.HasPrefix(l, "*** Update File: "):
			flush()
			cur = &streaming.FileEdit{Path: l[len("*** Update File: "):], Op: streaming.EditModify}
		case strings.HasPrefix(l, "*** Delete File: "):
			flush()
			cur = &streaming.FileEdit{Path: l[len("*** Delete File: "):], Op: streaming.EditDelete}
		case strings.HasPrefix(l, "*** Move to: "), strings.HasPrefix(l, "*** Begin Patch"), strings.HasPrefix(l, "*** End"):
		default:
			if cur != nil {
				body.WriteString(l)
				body.WriteByte('\n')
			}
		}
	}
	flush()
	return out
}

// diffEdits splits a unified diff into one edit per file ("--- a/p",
// "+++ b/p" headers); text before the first header is left out.
func diffEdits(diff string) []streaming.FileEdit {
	var out []streaming.FileEdit
	lines := strings.Split(diff, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "--- ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
			continue
		}
		from, to := strings.TrimSpace(lines[i][4:]), strings.TrimSpace(lines[i+1][4:])
		e := streaming.FileEdit{Op: streaming.EditModify, Path: strings.TrimPrefix(to, "b/")}
		switch {
		case from == "/dev/null":
			e.Op = streaming.EditCreate
		case to == "/dev/null":
			e.Op, e.Path = streaming.EditDelete, strings.TrimPrefix(from, "a/")
		}
		j := i + 2
		for j < len(lines) && !(strings.HasPrefix(lines[j], "--- ") && j+1 < len(lines) && strings.HasPrefix(lines[j+1], "+++ ")) {
			j++
		}
		e.Diff = strings.TrimRight(strings.Join(lines[i+2:j], "\n"), "\n")
		out = append(out, e)
		i = j - 1
	}
	return out
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
