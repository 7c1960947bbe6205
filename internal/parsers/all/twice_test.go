package all_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/conformance"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// inScope are the agents whose parsers issue 11 made thin, and those
// written since in the same shape.
var inScope = map[string]bool{"claude": true, "codex": true, "gemini": true, "opencode": true,
	"cursor": true, "acp": true, "cline": true, "copilot": true, "antigravity": true,
	"pi": true, "codebuddy": true, "openclaw": true, "droid": true, "grok": true, "goose": true, "kimi": true}

// dialects are the session-file formats that a registered agent's parser
// reads besides its stream (their fixtures and captures have folders of
// their own).
var dialects = []string{"codex-app-server", "codex-rollout", "claude-transcript", "gemini-session"}

// contractAgents are the registered agents, every one of which is in scope:
// an agent registered without being added to inScope fails the tests.
func contractAgents(t *testing.T) []parsers.Agent {
	var out []parsers.Agent
	for _, a := range all.Agents() {
		if !inScope[a.Name] {
			t.Errorf("agent %s is registered but not in scope of the contract tests", a.Name)
			continue
		}
		out = append(out, a)
	}
	if len(out) != len(inScope) {
		t.Fatalf("%d of the %d agents in scope are registered", len(out), len(inScope))
	}
	return out
}

// logs returns the fixtures and real captures of every agent and every
// session-file dialect, by folder.
func logs(t *testing.T) map[string][]string {
	folders := append([]string(nil), dialects...)
	for _, a := range contractAgents(t) {
		folders = append(folders, a.Name)
	}
	out := map[string][]string{}
	for _, name := range folders {
		fx, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", name, "*.jsonl"))
		out[name] = append(fx, conformance.Captures(name)...)
		if len(out[name]) == 0 {
			t.Fatalf("no logs for %s", name)
		}
	}
	return out
}

// TestSameLogTwice: identity is scoped to a run, so a
// log that holds the same run twice (`cat run.jsonl run.jsonl`) shows its
// tool calls twice, and its text twice, for every agent.
func TestSameLogTwice(t *testing.T) {
	for agent, files := range logs(t) {
		tested := 0
		for _, f := range files {
			t.Run(agent+"/"+filepath.Base(f), func(t *testing.T) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if first, _, _ := strings.Cut(string(data), "\n"); strings.HasPrefix(first, "[") || first == "{" {
					// Two documents one after the other are not a log: the
					// input reader shows them as raw lines.
					t.Skip("one JSON document, not a log of lines")
				}
				log := strings.TrimRight(string(data), "\n") + "\n"
				once := parsertest.Run(all.Agents(), log).Check(t)
				if len(once.Of(streaming.KindSessionStart)) == 0 {
					t.Skip("an excerpt: no run starts in it")
				}
				tested++
				twice := parsertest.Run(all.Agents(), log+log).Check(t)
				for _, kind := range []streaming.Kind{streaming.KindToolStart, streaming.KindToolEnd} {
					n1, n2 := len(once.Of(kind)), len(twice.Of(kind))
					if n2 != 2*n1 {
						t.Errorf("%s: %d once, %d twice", kind, n1, n2)
					}
				}
				t1, t2 := once.Text(streaming.KindTextDelta), twice.Text(streaming.KindTextDelta)
				if strings.Count(t2, t1) < 2 && len(t1) > 0 {
					t.Errorf("text shown once: %d bytes once, %d twice", len(t1), len(t2))
				}
			})
		}
		if tested == 0 {
			t.Errorf("%s: no log holds a whole run, so none was tested twice", agent)
		}
	}
}
