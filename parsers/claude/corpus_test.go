package claude_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/conformance"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/claude"
	"github.com/agentfmt/agentfmt/streaming"
)

// assistantText concatenates the assistant text the session passed on.
func assistantText(r parsertest.Result) string {
	var b strings.Builder
	for _, e := range r.Events {
		if e.Kind == streaming.KindTextDelta && e.Role == streaming.RoleAssistant {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// TestCorpus runs the real captures of the claude and qwen folders through
// the parser and checks them against the conformance extractors.
func TestCorpus(t *testing.T) {
	for _, folder := range []string{"claude", "qwen"} {
		files := conformance.Captures(folder)
		if len(files) == 0 {
			t.Skipf("no corpus for %s", folder)
		}
		x, ok := conformance.Lookup(folder)
		if !ok {
			t.Fatalf("no extractor for %s", folder)
		}
		for _, f := range files {
			t.Run(folder+"/"+filepath.Base(f), func(t *testing.T) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				want := x(data, filepath.Base(f))
				for _, agents := range [][]parsers.Agent{{claude.Agent}} {
					r := parsertest.Run(agents, string(data)).Check(t)
					text := assistantText(r)
					for _, w := range want.Texts {
						if n := strings.Count(text, w); n != 1 {
							t.Errorf("text %q shown %d times", parsers.Clip(w, 60), n)
						}
					}
					if exitOf(r.Outcome) != want.Exit {
						t.Errorf("outcome %s (%s), want exit %d", r.Outcome, r.Reason, want.Exit)
					}
					if want.Answer != "" && r.Answer != want.Answer {
						t.Errorf("answer %q, want %q", parsers.Clip(r.Answer, 60), parsers.Clip(want.Answer, 60))
					}
					for _, e := range r.Events {
						if e.Kind == streaming.KindUnknown && e.Agent == "claude" {
							t.Logf("unknown line %d: %s", e.Line, e.Type)
						}
					}
				}
			})
		}
	}
}

func exitOf(o streaming.Outcome) int {
	switch o {
	case streaming.Success:
		return 0
	case streaming.Failure:
		return 1
	}
	return 3
}
