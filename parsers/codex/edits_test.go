package codex

import (
	"reflect"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// TestPatchEdits: one reading of an apply_patch text, for the rollout's
// apply_patch calls and for patches in exec inputs (the two readings that
// were: paths trimmed, an update's hunk lines as the diff with their line
// ends, an added file's lines without their "+", nothing outside Begin
// Patch … End Patch, Windows line ends read as \n).
func TestPatchEdits(t *testing.T) {
	type fe = streaming.FileEdit
	for _, tc := range []struct {
		name, patch string
		want        []fe
	}{
		{"rollout apply_patch", "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** Add File: b.md\n+hello\n*** Delete File: c.txt\n*** End Patch",
			[]fe{{Path: "a.go", Op: "modify", Diff: "@@\n-x\n+y\n"}, {Path: "b.md", Op: "create", New: "hello\n"}, {Path: "c.txt", Op: "delete"}}},
		{"exec input", "*** Begin Patch\n*** Update File: x.go\n@@\n-a\n+b\n*** Add File: y.go\n+package y\n*** Delete File: z.go\n*** End Patch",
			[]fe{{Path: "x.go", Op: "modify", Diff: "@@\n-a\n+b\n"}, {Path: "y.go", Op: "create", New: "package y\n"}, {Path: "z.go", Op: "delete"}}},
		{"heredoc, CRLF, move, end of file", "apply_patch <<'PATCH'\r\n*** Begin Patch\r\n*** Update File: a.go \r\n*** Move to: b.go\r\n@@\r\n-1\r\n+2\r\n*** End of File\r\n*** End Patch\r\nPATCH\r\n",
			[]fe{{Path: "a.go", Op: "modify", To: "b.go", Diff: "@@\n-1\n+2\n"}}},
		{"added file with a blank line", "*** Begin Patch\n*** Add File: n.txt\n+a\n+\n+b\n*** End Patch\n",
			[]fe{{Path: "n.txt", Op: "create", New: "a\n\nb\n"}}},
	} {
		if got := patchEdits(tc.patch); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}

func TestToolEdits(t *testing.T) {
	type fe = streaming.FileEdit
	for _, tc := range []struct {
		in   string
		want []fe
	}{
		{`{"input":"*** Begin Patch\n*** Delete File: z.go\n*** End Patch"}`, []fe{{Path: "z.go", Op: "delete"}}},
		{`["apply_patch","*** Begin Patch\n*** Delete File: z.go\n*** End Patch"]`, []fe{{Path: "z.go", Op: "delete"}}},
		{`{"command":"bash -lc 'apply_patch <<EOF\n*** Begin Patch\n*** Delete File: z.go\n*** End Patch\nEOF'"}`, []fe{{Path: "z.go", Op: "delete"}}},
		{`{"changes":{"/r/a.go":{"update":{"unified_diff":"@@ -1 +1 @@\n-a\n+b\n","move_path":null}},"/r/b.go":{"add":{"content":"b\n"}},"/r/c.go":"delete"}}`,
			[]fe{{Path: "/r/a.go", Op: "modify", Diff: "@@ -1 +1 @@\n-a\n+b\n"}, {Path: "/r/b.go", Op: "create", New: "b\n"}, {Path: "/r/c.go", Op: "delete"}}},
		{`{"changes":{"/r/a.go":{"update":{"unified_diff":"@@ -1 +1 @@\n-a\n+b\n","move_path":"/r/z.go"}}}}`,
			[]fe{{Path: "/r/a.go", Op: "modify", To: "/r/z.go", Diff: "@@ -1 +1 @@\n-a\n+b\n"}}},
		{`{"changes":[{"path":"/r/m.go","kind":{"type":"update","move_path":"/r/n.go"},"diff":"@@ -1 +1 @@\n-a\n+b\n"}]}`,
			[]fe{{Path: "/r/m.go", Op: "modify", To: "/r/n.go", Diff: "@@ -1 +1 @@\n-a\n+b\n"}}},
		{`{"changes":[{"path":"/r/a.go","kind":"update"},{"path":"/r/n.md","kind":{"type":"add"},"diff":"# N\n"},{"path":"/r/o.go","kind":"delete"}]}`,
			[]fe{{Path: "/r/a.go", Op: "modify"}, {Path: "/r/n.md", Op: "create", New: "# N\n"}, {Path: "/r/o.go", Op: "delete"}}},
		{`{"command":"ls -la","cwd":"/r"}`, nil},
		{`"not a patch"`, nil},
	} {
		if got := toolEdits("apply_patch", tc.in, ""); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.in, got, tc.want)
		}
	}
}
