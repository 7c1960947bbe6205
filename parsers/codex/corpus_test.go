package codex_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/conformance"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

var exitOutcome = map[int]streaming.Outcome{0: streaming.Success, 1: streaming.Failure, 3: streaming.Incomplete}

// checkExpect checks a run against an extractor's reading.
func checkExpect(t *testing.T, res parsertest.Result, want conformance.Expect) {
	t.Helper()
	if res.Err != nil {
		t.Fatalf("decode: %v", res.Err)
	}
	var text strings.Builder
	for _, e := range res.Events {
		if e.Kind == streaming.KindTextDelta && e.Role == streaming.RoleAssistant {
			text.WriteString(e.Text)
		}
	}
	all := text.String()
	for _, s := range want.Texts {
		if strings.TrimSpace(s) == "" {
			continue
		}
		if n := strings.Count(all, s); n != 1 {
			t.Errorf("text %q appears %d times in the assistant text", s, n)
		}
	}
	if got := res.Outcome; got != exitOutcome[want.Exit] {
		t.Errorf("outcome %v (%s), want exit %d", got, res.Reason, want.Exit)
	}
	if want.Answer != "" && strings.TrimRight(res.Answer, "\n") != want.Answer {
		t.Errorf("answer %q, want %q", res.Answer, want.Answer)
	}
	for _, e := range res.Events {
		if e.Kind == streaming.KindUnknown {
			t.Errorf("unknown event on line %d: %s", e.Line, e.Text)
		}
	}
}

// TestCorpus runs the real captures of ../shared/corpus/codex.
func TestCorpus(t *testing.T) {
	files := conformance.Captures("codex")
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	x, ok := conformance.Lookup("codex")
	if !ok {
		t.Fatal("no codex extractor registered")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checkExpect(t, parsertest.Run(agents, string(data)), x(data, filepath.Base(f)))
		})
	}
}

// TestFixturesAgainstExtractor checks the hand-written fixtures with the
// same independent reading (the unknown types they hold on purpose aside).
func TestFixturesAgainstExtractor(t *testing.T) {
	x, ok := conformance.Lookup("codex")
	if !ok {
		t.Fatal("no codex extractor registered")
	}
	for _, f := range fixtures(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			res := parsertest.Run(agents, string(data))
			var known []streaming.Event
			for _, e := range res.Events {
				if e.Kind != streaming.KindUnknown {
					known = append(known, e)
				}
			}
			res.Events = known
			checkExpect(t, res, x(data, filepath.Base(f)))
		})
	}
}
