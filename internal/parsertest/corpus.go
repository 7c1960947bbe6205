package parsertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/conformance"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// CorpusOptions tune Corpus.
type CorpusOptions struct {
	// Agent, when set, must have read every line (no other agent took one).
	Agent string
	// Fixtures also checks the fixtures testdata/<folder>/*.jsonl.
	Fixtures bool
	// NoUnknown fails on unknown events.
	NoUnknown bool
}

// Corpus runs the real captures of ../shared/corpus/<folder> through
// agents and checks each against the folder's conformance extractor (see
// CheckExpect). It skips when the corpus is absent.
func Corpus(t *testing.T, agents []parsers.Agent, folder string, o CorpusOptions) {
	x, ok := conformance.Lookup(folder)
	if !ok {
		t.Fatalf("no %s extractor", folder)
	}
	files := conformance.Captures(folder)
	if len(files) == 0 {
		t.Skip("corpus not found")
	}
	if o.Fixtures {
		fx, _ := filepath.Glob(filepath.Join(conformance.RepoDir(), "testdata", folder, "*.jsonl"))
		files = append(files, fx...)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r := Run(agents, string(data)).Check(t)
			CheckExpect(t, r, x(data, filepath.Base(f)), o)
		})
	}
}

// exitOf is the exit status an outcome calls for.
var exitOf = map[streaming.Outcome]int{streaming.Success: 0, streaming.Failure: 1, streaming.Incomplete: 3}

// CheckExpect checks a decoded stream against what its conformance reading
// expects: each assistant text shown as often as the expected texts hold
// it ("done" may also sit inside a longer text), the exit status, and the
// final answer.
func CheckExpect(t *testing.T, r Result, want conformance.Expect, o CorpusOptions) {
	t.Helper()
	for _, e := range r.Events {
		if o.Agent != "" && e.Agent != "" && e.Agent != o.Agent {
			t.Fatalf("line %d went to %s", e.Line, e.Agent)
		}
	}
	shown := r.Text(streaming.KindTextDelta)
	joined := strings.Join(want.Texts, "\x00")
	for _, text := range want.Texts {
		if strings.TrimSpace(text) == "" {
			continue
		}
		if got, exp := strings.Count(shown, text), strings.Count(joined, text); got != exp {
			t.Errorf("text %q shown %d times, want %d", text, got, exp)
		}
	}
	if exit := exitOf[r.Outcome]; exit != want.Exit {
		t.Errorf("exit %d (%v: %s), want %d", exit, r.Outcome, r.Reason, want.Exit)
	}
	if want.Answer != "" && strings.TrimRight(r.Answer, "\n") != strings.TrimRight(want.Answer, "\n") {
		t.Errorf("answer %q, want %q", r.Answer, want.Answer)
	}
	if n := len(r.Of(streaming.KindUnknown)); o.NoUnknown && n > 0 {
		t.Errorf("%d unknown events", n)
	}
}
