package parsers

import (
	"reflect"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

func TestEditKeysRead(t *testing.T) {
	k := EditKeys{Path: []string{"file", "path"}, Old: "old", New: "new", Edits: "list",
		Content: "body", Writes: []string{"write", "create"}}
	mod := func(path, o, n string) streaming.FileEdit {
		return streaming.FileEdit{Path: path, Op: streaming.EditModify, Old: o, New: n}
	}
	for _, c := range []struct {
		name, tool, input string
		want              []streaming.FileEdit
	}{
		{"one edit", "Edit", `{"file":"a.go","old":"x","new":"y"}`, []streaming.FileEdit{mod("a.go", "x", "y")}},
		{"second path key", "Edit", `{"path":"b.go","old":"x","new":""}`, []streaming.FileEdit{mod("b.go", "x", "")}},
		{"first path key wins", "Edit", `{"path":"b.go","file":"a.go","old":"x","new":"y"}`, []streaming.FileEdit{mod("a.go", "x", "y")}},
		{"old without new", "Edit", `{"file":"a.go","old":"x"}`, nil},
		{"list", "MultiEdit", `{"file":"a.go","list":[{"old":"1","new":"2"},{"old":"3","new":"4"}]}`,
			[]streaming.FileEdit{mod("a.go", "1", "2"), mod("a.go", "3", "4")}},
		{"written", "Write", ` {"file":"n.go","body":"package n\n"}`,
			[]streaming.FileEdit{{Path: "n.go", Op: streaming.EditCreate, New: "package n\n"}}},
		{"created, any case", "CREATE_file", `{"file":"n.go","body":""}`,
			[]streaming.FileEdit{{Path: "n.go", Op: streaming.EditCreate, New: ""}}},
		{"content of a tool not named for writing", "Read", `{"file":"n.go","body":"x"}`, nil},
		{"content not a string", "Write", `{"file":"n.go","body":1}`, nil},
		{"no path", "Edit", `{"old":"x","new":"y"}`, nil},
		{"not an object", "Edit", `["file","a.go"]`, nil},
		{"empty", "Edit", ``, nil},
		{"broken", "Edit", `{"file":"a.go","old":"x","new":`, nil},
	} {
		if got := k.Read(c.tool, c.input); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Read(%q, %q) = %+v, want %+v", c.name, c.tool, c.input, got, c.want)
		}
	}
}
