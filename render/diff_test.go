package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// editRun is a run with an Edit whose change is known at its start (as
// Claude's: the edit is in the input, the result says only "updated"),
// a Write of a 20-line file, and a failed Edit.
func editRun() []streaming.Event {
	var body strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&body, "line %d\n", i)
	}
	edit := []streaming.FileEdit{{Path: "/p/clock.go", Op: streaming.EditModify,
		Old: "func now() time.Time {\n\treturn time.Now()\n}", New: "func now() time.Time {\n\treturn clock.Now()\n}"}}
	write := []streaming.FileEdit{{Path: "/p/new.txt", Op: streaming.EditCreate, New: body.String()}}
	return []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s"},
		{Kind: streaming.KindToolStart, ID: "e1", Name: "Edit", Subject: "/p/clock.go", Edits: edit},
		{Kind: streaming.KindToolEnd, ID: "e1", Name: "Edit", Subject: "/p/clock.go", Status: streaming.ToolOK,
			Output: "The file /p/clock.go has been updated."},
		{Kind: streaming.KindToolStart, ID: "w1", Name: "Write", Subject: "/p/new.txt", Edits: write},
		{Kind: streaming.KindToolEnd, ID: "w1", Name: "Write", Subject: "/p/new.txt", Status: streaming.ToolOK,
			Output: "File created successfully"},
		{Kind: streaming.KindToolStart, ID: "e2", Name: "Edit", Subject: "/p/gone.go",
			Edits: []streaming.FileEdit{{Path: "/p/gone.go", Op: streaming.EditModify, Old: "a", New: "b"}}},
		{Kind: streaming.KindToolEnd, ID: "e2", Name: "Edit", Subject: "/p/gone.go", Status: streaming.ToolError,
			Output: "File does not exist."},
		{Kind: streaming.KindResult, OK: true},
	}
}

func renderEvents(t *testing.T, format string, cfg Config, evs []streaming.Event) string {
	t.Helper()
	var out bytes.Buffer
	cfg.env.Now = fixedNow
	r, err := New(format, &out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	feed(t, r, evs)
	if err := r.Finish(Summary{Outcome: streaming.Success}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// Plain and markdown show a successful edit as a unified diff in place of
// its output (issue 24 item 3), bounded like a preview (twice the rows),
// whole with --tools full, not at all with --tools none; a failed edit
// shows its output.
func TestEditDiffs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		format string
		tools  ToolsMode
		want   []string // in order
		not    []string
	}{
		{"plain", ToolsPreview, []string{
			"✓ Edit /p/clock.go · +1 −1\n  │  func now() time.Time {\n  │ -\treturn time.Now()\n  │ +\treturn clock.Now()\n  │  }\n",
			"✓ Write /p/new.txt · +20 −0\n  │ +line 1\n", "  │ +line 6\n  │ … 8 more lines\n  │ +line 15\n", "  │ +line 20\n",
			"✗ Edit /p/gone.go\n  │ File does not exist.\n"},
			[]string{"has been updated", "created successfully", "+line 7\n", "-a\n"}},
		{"plain", ToolsFull, []string{"+line 7\n", "+line 14\n"}, []string{"more line"}},
		{"plain", ToolsNone, []string{"✓ Edit /p/clock.go · +1 −1\n"}, []string{"│"}},
		{"markdown", ToolsPreview, []string{
			"- ✓ **Edit** `/p/clock.go` · +1 −1\n  ```diff\n   func now() time.Time {\n  -\treturn time.Now()\n  +\treturn clock.Now()\n   }\n  ```\n",
			"- ✓ **Write** `/p/new.txt` · +20 −0\n  ```diff\n  +line 1\n", "  … 8 more lines …\n", "  +line 20\n  ```\n",
			"- ✗ **Edit** `/p/gone.go`\n  ```\n  File does not exist.\n  ```\n"},
			[]string{"has been updated", "+line 7\n"}},
		{"markdown", ToolsFull, []string{"+line 7\n", "+line 14\n"}, []string{"more line"}},
		{"markdown", ToolsNone, []string{"- ✓ **Edit** `/p/clock.go` · +1 −1\n- ✓ **Write**"}, []string{"```"}},
	} {
		t.Run(tc.format+"/"+string(tc.tools), func(t *testing.T) {
			got := renderEvents(t, tc.format, Config{Color: false, Width: 80, Tools: tc.tools}, editRun())
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (or out of order) %q in\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("has %q:\n%s", n, got)
				}
			}
		})
	}
}

// In a GitHub Actions log an edit's diff is folded in a group whose
// header is the call's end line, whole (as folded output is); in GitLab,
// a collapsed section.
func TestEditDiffFoldedInCI(t *testing.T) {
	t.Parallel()
	got := renderEvents(t, "plain", Config{Color: false, Width: 80, CI: CIGitHub}, editRun())
	_, log := simulateRunner(got, false)
	joined := strings.Join(log, "\n")
	want := "##[group]✓ Edit /p/clock.go · +1 −1\n  │  func now() time.Time {\n  │ -\treturn time.Now()\n  │ +\treturn clock.Now()\n  │  }\n##[endgroup]"
	if !strings.Contains(joined, want) {
		t.Errorf("no folded diff %q in\n%s", want, joined)
	}
	if !strings.Contains(joined, "##[group]✓ Write /p/new.txt · +20 −0\n  │ +line 1\n") || !strings.Contains(joined, "+line 10\n") {
		t.Errorf("the folded Write diff is not whole:\n%s", joined)
	}
	gl := renderEvents(t, "plain", Config{Color: false, Width: 80, CI: CIGitLab}, editRun())
	if !strings.Contains(gl, "[collapsed=true]\r\x1b[0K✓ Edit /p/clock.go · +1 −1\n  │  func now()") {
		t.Errorf("no collapsed GitLab section for the diff:\n%q", gl)
	}
}

// A renamed file's diff names it, old and new path, though the call's
// line names the old one; the html page names it so too.
func TestEditDiffRename(t *testing.T) {
	t.Parallel()
	edit := []streaming.FileEdit{{Path: "a.go", Op: streaming.EditModify, To: "b.go", Diff: "@@ -1 +1 @@\n-a\n+b"}}
	evs := []streaming.Event{
		{Kind: streaming.KindToolStart, ID: "p", Name: "apply_patch", Subject: "a.go", Edits: edit},
		{Kind: streaming.KindToolEnd, ID: "p", Name: "apply_patch", Subject: "a.go", Status: streaming.ToolOK},
	}
	for _, format := range []string{"plain", "markdown"} {
		if got := renderEvents(t, format, Config{Width: 80}, evs); !strings.Contains(got, "a.go → b.go") {
			t.Errorf("%s does not name the rename:\n%s", format, got)
		}
	}
}
