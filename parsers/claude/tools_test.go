package claude

import (
	"reflect"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

func TestToolEdits(t *testing.T) {
	type fe = streaming.FileEdit
	for _, tc := range []struct {
		name, in string
		want     []fe
	}{
		{"Edit", `{"file_path":"/a.go","old_string":"x := 1","new_string":"x := 2"}`, []fe{{Path: "/a.go", Op: "modify", Old: "x := 1", New: "x := 2"}}},
		{"MultiEdit", `{"file_path":"/a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d","replace_all":true}]}`,
			[]fe{{Path: "/a.go", Op: "modify", Old: "a", New: "b"}, {Path: "/a.go", Op: "modify", Old: "c", New: "d"}}},
		{"Write", `{"file_path":"/n.txt","content":"hi\n"}`, []fe{{Path: "/n.txt", Op: "create", New: "hi\n"}}},
		{"replace", `{"file_path":"/n.txt","old_string":"teh","new_string":"the"}`, []fe{{Path: "/n.txt", Op: "modify", Old: "teh", New: "the"}}}, // Qwen
		{"create_file", `{"path":"/c.md","content":"# C"}`, []fe{{Path: "/c.md", Op: "create", New: "# C"}}},                                      // Amp
		{"Read", `{"file_path":"/a.go"}`, nil},
		{"Bash", `{"command":"apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF"}`, nil},
		{"mcp.tool", `{"path":"/r.md","content":"a read, not a write"}`, nil},
		{"str_replace_based_edit_tool", `{"path":"/a.go","old_string":"a","new_string":"b"}`, []fe{{Path: "/a.go", Op: "modify", Old: "a", New: "b"}}},
		{"mcp__x__lookup", `{"file_path":"/a.go","old_string":"a","new_string":"b"}`, nil}, // not named for editing: not read
	} {
		if got := toolEdits(tc.name, tc.in, ""); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestToolSubject(t *testing.T) {
	for in, want := range map[string]string{
		`{"command":"go test ./...","description":"run the tests"}`: "go test ./...",
		`{"cmd":"ls"}`:                        "ls", // Amp
		`{"pattern":"*.go","path":"/src"}`:    "/src",
		`{"notebook_path":"/n.ipynb"}`:        "/n.ipynb",
		`{"subject":"Fix the test","x":"y"}`:  "Fix the test", // TaskCreate
		`{"todos":[{"content":"a"}]}`:         `{"todos":[{"content":"a"}]}`,
		`{"filePath":"/o.ts","other":"word"}`: "/o.ts", // not a key of Claude's: the first string
	} {
		if got := parsers.SubjectOf("", in, tools.Subject); got != want {
			t.Errorf("SubjectOf(%s) = %q, want %q", in, got, want)
		}
	}
}
