package diffview

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

func text(ls []Line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(string(l.Kind) + "|" + l.Text + "\n")
	}
	return b.String()
}

func TestLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		edits []streaming.FileEdit
		want  string
	}{
		{[]streaming.FileEdit{{Path: "a.go", Op: "modify", Old: "x := 1\ny := 2", New: "x := 1\ny := 3"}},
			"f|a.go\n | x := 1\n-|-y := 2\n+|+y := 3\n"},
		{[]streaming.FileEdit{{Path: "n.txt", Op: "create", New: "one\ntwo\n"}}, "f|n.txt (new)\n+|+one\n+|+two\n"},
		{[]streaming.FileEdit{{Path: "s.go", Op: "modify", Diff: "--- a/s.go\n+++ b/s.go\n@@ -1 +1 @@\n-a\n+b"}}, "f|s.go\n@|@@ -1 +1 @@\n-|-a\n+|+b\n"},
		{[]streaming.FileEdit{{Path: "m.go", Op: "modify", Old: "a", New: "b"}, {Path: "m.go", Op: "modify", Old: "c", New: "d"}},
			"f|m.go\n-|-a\n+|+b\n@|⋯\n-|-c\n+|+d\n"},
		{[]streaming.FileEdit{{Path: "z.go", Op: "delete"}}, "f|z.go (deleted)\n"},
		{[]streaming.FileEdit{{Path: "a.go", Op: "modify", To: "b.go", Diff: "@@ -1 +1 @@\n-a\n+b"}}, "f|a.go → b.go\n@|@@ -1 +1 @@\n-|-a\n+|+b\n"},
		{[]streaming.FileEdit{{Path: "c.go", Op: "modify"}}, "f|c.go\n"}, // named, its change not known
		{[]streaming.FileEdit{{Path: "c.go", Op: "modify", Old: "x", New: "x"}}, "f|c.go\n~|(no changes)\n"},
		{[]streaming.FileEdit{{Path: "z.go", Op: "delete", Old: "gone\nfor good\n"}}, "f|z.go (deleted)\n-|-gone\n-|-for good\n"},
		// A snippet's edit: no "\ No newline at end of file" (issue 24 item 15).
		{[]streaming.FileEdit{{Path: "s.go", Op: "modify", Old: "a := 1", New: "a := 2"}}, "f|s.go\n-|-a := 1\n+|+a := 2\n"},
	} {
		if got := text(Lines(tc.edits)); got != tc.want {
			t.Errorf("%+v:\n got %q\nwant %q", tc.edits, got, tc.want)
		}
	}
}
