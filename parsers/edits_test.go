package parsers

import (
	"reflect"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

func TestEdits(t *testing.T) {
	type fe = streaming.FileEdit
	for _, tc := range []struct {
		name, in, out string
		want          []fe
	}{
		{"Edit", `{"file_path":"/a.go","old_string":"x := 1","new_string":"x := 2"}`, "", []fe{{Path: "/a.go", Op: "modify", Old: "x := 1", New: "x := 2"}}},
		{"MultiEdit", `{"file_path":"/a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d","replace_all":true}]}`, "",
			[]fe{{Path: "/a.go", Op: "modify", Old: "a", New: "b"}, {Path: "/a.go", Op: "modify", Old: "c", New: "d"}}},
		{"Write", `{"file_path":"/n.txt","content":"hi\n"}`, "", []fe{{Path: "/n.txt", Op: "create", New: "hi\n"}}},
		{"edit", `{"filePath":"/o.ts","oldString":"a","newString":"b"}`, "", []fe{{Path: "/o.ts", Op: "modify", Old: "a", New: "b"}}},
		{"write", `{"filePath":"/o.ts","content":"x"}`, "", []fe{{Path: "/o.ts", Op: "create", New: "x"}}},
		{"write", `{"path":"/c.py","fileText":"print()"}`, "", []fe{{Path: "/c.py", Op: "create", New: "print()"}}},
		{"apply_patch", `{"input":"*** Begin Patch\n*** Update File: x.go\n@@\n-a\n+b\n*** Add File: y.go\n+package y\n*** Delete File: z.go\n*** End Patch"}`, "",
			[]fe{{Path: "x.go", Op: "modify", Diff: "@@\n-a\n+b"}, {Path: "y.go", Op: "create", New: "package y\n"}, {Path: "z.go", Op: "delete"}}},
		{"apply_patch", `{"changes":{"/r/a.go":{"update":{"unified_diff":"@@ -1 +1 @@\n-a\n+b\n","move_path":null}},"/r/b.go":{"add":{"content":"b\n"}}}}`, "",
			[]fe{{Path: "/r/a.go", Op: "modify", Diff: "@@ -1 +1 @@\n-a\n+b\n"}, {Path: "/r/b.go", Op: "create", New: "b\n"}}},
		{"apply_patch", `{"changes":[{"path":"/r/a.go","kind":"update"}]}`, "", []fe{{Path: "/r/a.go", Op: "modify"}}},
		{"edit", `{}`, "--- a/s.go\n+++ b/s.go\n@@ -1 +1 @@\n-a\n+b", []fe{{Path: "s.go", Op: "modify", Diff: "@@ -1 +1 @@\n-a\n+b"}}},
		{"edit", `{}`, "--- /dev/null\n+++ b/n.go\n@@ -0,0 +1 @@\n+a", []fe{{Path: "n.go", Op: "create", Diff: "@@ -0,0 +1 @@\n+a"}}},
		{"Bash", `{"command":"ls -la"}`, "total 0", nil},
		{"readFile", `{"tool":"readFile","path":"hello.py","content":"/work/hello.py"}`, "", nil},
		{"listFilesTopLevel", `{"path":".","content":"README.md\nsrc/"}`, "", nil},
		{"editedExistingFile", `{"path":"src/u.go","content":"------- SEARCH\nfunc Foo() {}\n=======\nfunc Bar() {}\n+++++++ REPLACE"}`, "",
			[]fe{{Path: "src/u.go", Op: "modify", Old: "func Foo() {}", New: "func Bar() {}"}}},
		{"replace", `{"file_path":"/n.txt","old_string":"teh","new_string":"the"}`, "", []fe{{Path: "/n.txt", Op: "modify", Old: "teh", New: "the"}}},
		{"Read", `{"file_path":"/a.go"}`, "1\tpackage a", nil},
	} {
		got := Edits(tc.name, tc.in, tc.out)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", tc.name, tc.in, got, tc.want)
		}
	}
}

// TestNormaliseEdits: the decoder-level hook fills Edits on tool events.
func TestNormaliseEdits(t *testing.T) {
	ev := streaming.Event{Kind: streaming.KindToolStart, Name: "Edit", Input: `{"file_path":"/a","old_string":"a","new_string":"b"}`}
	normalise(&ev, true)
	if len(ev.Edits) != 1 || ev.Edits[0].New != "b" {
		t.Errorf("edits %+v", ev.Edits)
	}
}
