package all_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/conformance"
	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/parsers/all"
	"github.com/agentfmt/agentfmt/parsers/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// inScope are the agents whose parsers issue 11 made thin; the agents
// added since (copilot, antigravity, the session-file formats) are checked
// by their own packages.
var inScope = map[string]bool{"claude": true, "codex": true, "gemini": true, "opencode": true,
	"cursor": true, "acp": true, "cline": true}

// contractAgents are the registered agents in scope.
func contractAgents(t *testing.T) []parsers.Agent {
	var out []parsers.Agent
	for _, a := range all.Agents() {
		if inScope[a.Name] {
			out = append(out, a)
		}
	}
	if len(out) != len(inScope) {
		t.Fatalf("%d of the %d agents in scope are registered", len(out), len(inScope))
	}
	return out
}

// logs returns the fixtures and real captures of every agent, by agent.
func logs(t *testing.T) map[string][]string {
	out := map[string][]string{}
	for _, a := range contractAgents(t) {
		fx, _ := filepath.Glob(filepath.Join("..", "..", "testdata", a.Name, "*.jsonl"))
		out[a.Name] = append(fx, conformance.Captures(a.Name)...)
		if len(out[a.Name]) == 0 {
			t.Fatalf("no logs for %s", a.Name)
		}
	}
	return out
}

// TestSameLogTwice: identity is scoped to a run (DESIGN §4 rule 5), so a
// log that holds the same run twice (`cat run.jsonl run.jsonl`) shows its
// tool calls twice, and its text twice, for every agent.
func TestSameLogTwice(t *testing.T) {
	for agent, files := range logs(t) {
		if !inScope[agent] {
			continue
		}
		for _, f := range files {
			t.Run(agent+"/"+filepath.Base(f), func(t *testing.T) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(string(data), "[") {
					t.Skip("one JSON document, not a log of lines")
				}
				log := strings.TrimRight(string(data), "\n") + "\n"
				once := parsertest.Run(all.Agents(), log).Check(t)
				if len(once.Of(streaming.KindSessionStart)) == 0 {
					t.Skip("an excerpt: no run starts in it")
				}
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
	}
}
