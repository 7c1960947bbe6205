package codex

import (
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// editsOf turns a file change list ({path, kind, diff}; kind a string or
// {"type":…}) into file edits: an added file's diff is its content.
func editsOf(ch gjson.Result) []streaming.FileEdit {
	var edits []streaming.FileEdit
	ch.ForEach(func(k, c gjson.Result) bool {
		path := c.Get("path").String()
		if path == "" && k.Type == gjson.String {
			path = k.Str // {path: change} maps
		}
		kind := c.Get("kind")
		word := kind.String()
		if kind.IsObject() {
			word = kind.Get("type").String()
		}
		if word == "" {
			word = c.Get("type").String()
		}
		e := streaming.FileEdit{Path: path, Op: streaming.EditModify}
		diff := c.Get("diff").String()
		if diff == "" {
			diff = c.Get("unified_diff").String()
		}
		switch word {
		case "add", "create":
			e.Op = streaming.EditCreate
			e.New = diff
			if diff == "" {
				e.New = c.Get("content").String()
			}
		case "delete", "remove":
			e.Op = streaming.EditDelete
			e.Diff = diff
		default:
			e.Diff = diff
		}
		edits = append(edits, e)
		return true
	})
	return edits
}
