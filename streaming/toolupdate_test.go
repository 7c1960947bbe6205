package streaming

import (
	"slices"
	"testing"
)

// TestRepeatedToolStart: a tool.start of an open call updates it: what
// the repeat says of its title, input, subject and edits replaces the
// call's, its name replaces only an implicit start's, its parent never
// changes. Nothing is shown twice, and it is no contract violation.
func TestRepeatedToolStart(t *testing.T) {
	t.Parallel()
	r := newRecorder(true)
	first := Event{Kind: KindToolStart, ID: "c1", Name: "web_search", Parent: "p"}
	later := Event{Kind: KindToolStart, ID: "c1", Name: "other", Parent: "q", Title: "go iter",
		Input: `{"query":"go iter"}`, Subject: "go iter", Edits: []FileEdit{{Path: "a.go", Op: EditModify}}}
	implicitOut := Event{Kind: KindToolOutputDelta, ID: "c2", Text: "x"}
	named := Event{Kind: KindToolStart, ID: "c2", Name: "Bash", Title: "ls"}
	end1 := Event{Kind: KindToolEnd, ID: "c1", Status: ToolOK}
	end2 := Event{Kind: KindToolEnd, ID: "c2", Status: ToolOK}
	var seen *Call
	peek := Event{Kind: KindStatus, Text: "peek"}
	if err := r.push(first, later, implicitOut, named, peek); err != nil {
		t.Fatalf("a repeated start of an open call is a contract error: %v", err)
	}
	seen = r.sess.Call("c1")
	if seen == nil || seen.Title != "go iter" || seen.Input != later.Input || seen.Subject != "go iter" ||
		seen.Name != "web_search" || seen.Parent != "p" || len(seen.Edits) != 1 {
		t.Fatalf("open call after the update: %+v", seen)
	}
	if c := r.sess.Call("c2"); c == nil || c.Name != "Bash" || c.Title != "ls" {
		t.Fatalf("an implicitly started call, then its start: %+v", c)
	}
	if err := r.push(end1, end2); err != nil {
		t.Fatal(err)
	}
	want := []string{"tool.start c1 web_search", "tool.start c2 tool", `tool.out c2 "x"`, "status",
		`tool.end c1 ok ""`, `tool.end c2 ok "x"`}
	if got := r.shorts(); !slices.Equal(got, want) {
		t.Errorf("events\n got %q\nwant %q", got, want)
	}
	if e := r.out[len(r.out)-2]; e.Title != "go iter" || e.Input != later.Input || e.Parent != "p" {
		t.Errorf("tool.end of the updated call: %+v", e)
	}
	if len(r.reports) != 1 || r.sess.Stats().Duplicates != 0 { // the implicit start only
		t.Errorf("reports %q, stats %+v", r.reports, r.sess.Stats())
	}
}
