package gemini_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/conformance"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// A log made by concatenating a Codex capture and a Gemini capture renders
// both parts with the real registry: the Codex lines by the codex parser,
// the Gemini lines (from the decisive init on) by the gemini parser.
func TestConcatenatedCaptures(t *testing.T) {
	codexFiles := conformance.Captures("codex")
	gemFiles := conformance.Captures("gemini")
	if len(codexFiles) == 0 || len(gemFiles) == 0 {
		t.Skip("corpus not found")
	}
	gx, _ := conformance.Lookup("gemini")
	cx, haveCodex := conformance.Lookup("codex")
	for _, cf := range codexFiles {
		for _, gf := range gemFiles {
			t.Run(filepath.Base(cf)+"+"+filepath.Base(gf), func(t *testing.T) {
				c, err := os.ReadFile(cf)
				if err != nil {
					t.Fatal(err)
				}
				g, err := os.ReadFile(gf)
				if err != nil {
					t.Fatal(err)
				}
				in := string(c)
				if !strings.HasSuffix(in, "\n") {
					in += "\n"
				}
				codexLines := strings.Count(in, "\n")
				r := parsertest.Run(all.Agents(), in+string(g)).Check(t)

				var codexText, gemText strings.Builder
				for _, e := range r.Events {
					if e.Line > 0 && e.Line <= codexLines && e.Agent == "gemini" {
						t.Errorf("codex line %d rendered by gemini: %s", e.Line, e.Kind)
					}
					if e.Kind != streaming.KindTextDelta {
						continue
					}
					if e.Agent == "gemini" {
						gemText.WriteString(e.Text)
					} else {
						codexText.WriteString(e.Text)
					}
				}
				check := func(who string, texts []string, got string) {
					for _, w := range texts {
						if strings.TrimSpace(w) != "" && strings.Count(got, w) != 1 {
							t.Errorf("%s text %q appears %d times in %q", who, w, strings.Count(got, w), got)
						}
					}
				}
				check("gemini", gx(g, gf).Texts, gemText.String())
				if haveCodex {
					check("codex", cx(c, cf).Texts, codexText.String())
				}
				if len(r.Of(streaming.KindSessionStart)) < 2 {
					t.Errorf("runs: %d session.start", len(r.Of(streaming.KindSessionStart)))
				}
				exits := map[streaming.Outcome]int{streaming.Success: 0, streaming.Failure: 1, streaming.Incomplete: 3}
				if want := gx(g, gf).Exit; exits[r.Outcome] != want {
					t.Errorf("exit %d (%v %q), want the gemini run's %d", exits[r.Outcome], r.Outcome, r.Reason, want)
				}
			})
		}
	}
}
