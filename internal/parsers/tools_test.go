package parsers

import (
	"reflect"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

func TestDiffEdits(t *testing.T) {
	type fe = streaming.FileEdit
	for _, tc := range []struct {
		diff string
		want []fe
	}{
		{"--- a/s.go\n+++ b/s.go\n@@ -1 +1 @@\n-a\n+b", []fe{{Path: "s.go", Op: "modify", Diff: "@@ -1 +1 @@\n-a\n+b"}}},
		{"--- /dev/null\n+++ b/n.go\n@@ -0,0 +1 @@\n+a", []fe{{Path: "n.go", Op: "create", Diff: "@@ -0,0 +1 @@\n+a"}}},
		{"diff --git a/x b/x\n--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n--- a/y\n+++ b/y\n@@\n-1\n+2\n",
			[]fe{{Path: "x", Op: "delete", Diff: "@@ -1 +0,0 @@\n-x"}, {Path: "y", Op: "modify", Diff: "@@\n-1\n+2"}}},
		{"total 0", nil},
	} {
		if got := DiffEdits(tc.diff); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.diff, got, tc.want)
		}
	}
}

// TestNormaliseTools: the decoder fills a tool call's subject by the
// agent's keys and its edits from the agent's reading of its input, else
// from an output that is a unified diff; edits only when asked.
func TestNormaliseTools(t *testing.T) {
	tools := Tools{
		Subject: []string{"target", "command"},
		Edits: func(name, input, _ string) []streaming.FileEdit {
			if name == "write" {
				return []streaming.FileEdit{{Path: "w", Op: streaming.EditCreate}}
			}
			return nil
		},
	}
	ev := streaming.Event{Kind: streaming.KindToolStart, Name: "write", Input: `{"command":"c","target":"t"}`}
	normalise(&ev, &tools, true)
	if ev.Subject != "t" || len(ev.Edits) != 1 || ev.Edits[0].Path != "w" {
		t.Errorf("subject %q, edits %+v", ev.Subject, ev.Edits)
	}
	ev = streaming.Event{Kind: streaming.KindToolEnd, Name: "edit", Output: "--- a/f\n+++ b/f\n@@\n-a\n+b"}
	normalise(&ev, &tools, true)
	if ev.Subject != "" || len(ev.Edits) != 1 || ev.Edits[0].Path != "f" {
		t.Errorf("tool.end without input: subject %q, edits %+v", ev.Subject, ev.Edits)
	}
	ev = streaming.Event{Kind: streaming.KindToolStart, Name: "write", Input: `{}`, Title: "T"}
	normalise(&ev, &tools, false)
	if ev.Subject != "T" || ev.Edits != nil {
		t.Errorf("without edits: subject %q, edits %+v", ev.Subject, ev.Edits)
	}
	ev = streaming.Event{Kind: streaming.KindToolStart, Name: "bash", Input: `{"command":"ls"}`}
	normalise(&ev, &Tools{}, true)
	if ev.Subject != "ls" || ev.Edits != nil {
		t.Errorf("an agent without keys: subject %q (the first string), edits %+v", ev.Subject, ev.Edits)
	}
}

func TestPlanStatus(t *testing.T) {
	for word, want := range map[string]string{
		"completed": streaming.PlanCompleted, "Done": streaming.PlanCompleted, "in_progress": streaming.PlanInProgress,
		"in-progress": streaming.PlanInProgress, "active": streaming.PlanInProgress, "canceled": streaming.PlanCancelled,
		"failed": streaming.PlanCancelled, "pending": streaming.PlanPending, "": streaming.PlanPending, "whatever": streaming.PlanPending,
	} {
		if got := PlanStatus(word); got != want {
			t.Errorf("PlanStatus(%q) = %q, want %q", word, got, want)
		}
	}
}

// hasDiffHeader finds what the decoder took for a unified diff before it
// looked for '+' first: output that starts with "--- ", or has a line that
// starts with "+++ ".
func TestHasDiffHeader(t *testing.T) {
	for _, s := range []string{"", "--- a/x\n+++ b/x\n@@ -1 +1 @@", "--- ", "diff --git a/x b/x\n--- a/x\n+++ b/x",
		"+++ b/x", "a\n+++ ", "a\n+++b", "a+++ b", "x++++ y\n", "+++\n+++ z", "c++ +++ \n++ +++ ", "one\ntwo\n"} {
		want := strings.HasPrefix(s, "--- ") || strings.Contains(s, "\n+++ ")
		if got := hasDiffHeader(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}
