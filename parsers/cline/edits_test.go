package cline

import (
	"reflect"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

func TestToolEdits(t *testing.T) {
	type fe = streaming.FileEdit
	for _, tc := range []struct {
		name, in string
		want     []fe
	}{
		{"editedExistingFile", `{"tool":"editedExistingFile","path":"src/u.go","content":"------- SEARCH\nfunc Foo() {}\n=======\nfunc Bar() {}\n+++++++ REPLACE"}`,
			[]fe{{Path: "src/u.go", Op: "modify", Old: "func Foo() {}", New: "func Bar() {}"}}},
		{"editedExistingFile", `{"path":"a.go","content":"<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n1\n=======\n2\n>>>>>>> REPLACE"}`,
			[]fe{{Path: "a.go", Op: "modify", Old: "x", New: "y"}, {Path: "a.go", Op: "modify", Old: "1", New: "2"}}},
		{"newFileCreated", `{"tool":"newFileCreated","path":"n.md","content":"# N"}`, []fe{{Path: "n.md", Op: "create", New: "# N"}}},
		{"readFile", `{"tool":"readFile","path":"hello.py","content":"/work/hello.py"}`, nil},
		{"listFilesTopLevel", `{"path":".","content":"README.md\nsrc/"}`, nil},
	} {
		if got := toolEdits(tc.name, tc.in, ""); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", tc.name, tc.in, got, tc.want)
		}
	}
}
