package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/conformance"
	"github.com/agentfmt/agentfmt/parsers/all"
	"github.com/agentfmt/agentfmt/parsers/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestCorpus runs the real captures (../shared/corpus/acp) through
// every registered agent, as the command does, and checks them against
// the conformance extractor: each assistant text shown exactly once (as
// often as it occurs in the expected texts themselves: "done" is also
// inside a longer segment), the outcome, the answer.
func TestCorpus(t *testing.T) {
	x, ok := conformance.Lookup("acp")
	if !ok {
		t.Fatal("no cursor extractor")
	}
	files := conformance.Captures("acp")
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	// The fixtures follow the same rules.
	fx, _ := filepath.Glob("../../testdata/acp/*.jsonl")
	for _, f := range append(files, fx...) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := x(data, filepath.Base(f))
			r := parsertest.Run(all.Agents(), string(data)).Check(t)
			checkExpect(t, r, want)
		})
	}
}

func checkExpect(t *testing.T, r parsertest.Result, want conformance.Expect) {
	t.Helper()
	for _, e := range r.Events {
		if e.Agent != "" && e.Agent != "acp" {
			t.Fatalf("line %d went to %s", e.Line, e.Agent)
		}
	}
	shown := assistantText(r)
	joined := strings.Join(want.Texts, "\x00")
	for _, text := range want.Texts {
		if strings.TrimSpace(text) == "" {
			continue
		}
		if got, exp := strings.Count(shown, text), strings.Count(joined, text); got != exp {
			t.Errorf("text %q shown %d times, want %d", text, got, exp)
		}
	}
	exit := map[streaming.Outcome]int{streaming.Success: 0, streaming.Failure: 1, streaming.Incomplete: 3}[r.Outcome]
	if exit != want.Exit {
		t.Errorf("exit %d (%v: %s), want %d", exit, r.Outcome, r.Reason, want.Exit)
	}
	if want.Answer != "" && strings.TrimSuffix(r.Answer, "\n") != want.Answer {
		t.Errorf("answer %q, want %q", r.Answer, want.Answer)
	}
}
