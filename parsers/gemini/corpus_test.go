package gemini_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/conformance"
	"github.com/agentfmt/agentfmt/parsers/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestCorpus renders every real capture and checks it against the
// independent reading of conformance/gemini.go: each assistant text once,
// the outcome the run calls for, and the final answer.
func TestCorpus(t *testing.T) {
	files := conformance.Captures("gemini")
	if len(files) == 0 {
		t.Skip("corpus not found")
	}
	x, ok := conformance.Lookup("gemini")
	if !ok {
		t.Fatal("no gemini extractor")
	}
	exits := map[streaming.Outcome]int{streaming.Success: 0, streaming.Failure: 1, streaming.Incomplete: 3}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := x(data, filepath.Base(f))
			r := parsertest.Run(agents, string(data)).Check(t)
			text := r.Text(streaming.KindTextDelta)
			for _, w := range want.Texts {
				if strings.TrimSpace(w) == "" {
					continue
				}
				if n := strings.Count(text, w); n != 1 {
					t.Errorf("text %q appears %d times", w, n)
				}
			}
			if got := exits[r.Outcome]; got != want.Exit {
				t.Errorf("exit %d (%v %q), want %d", got, r.Outcome, r.Reason, want.Exit)
			}
			if want.Answer != "" && strings.TrimRight(r.Answer, "\n") != want.Answer {
				t.Errorf("answer %q, want %q", r.Answer, want.Answer)
			}
			if n := len(r.Of(streaming.KindUnknown)); n > 0 {
				t.Errorf("%d unknown events", n)
			}
		})
	}
}
