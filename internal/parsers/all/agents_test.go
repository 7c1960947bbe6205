package all_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/acp"
	"github.com/agentfmt/agentfmt/parsers/antigravity"
	"github.com/agentfmt/agentfmt/parsers/claude"
	"github.com/agentfmt/agentfmt/parsers/cline"
	"github.com/agentfmt/agentfmt/parsers/codebuddy"
	"github.com/agentfmt/agentfmt/parsers/codex"
	"github.com/agentfmt/agentfmt/parsers/copilot"
	"github.com/agentfmt/agentfmt/parsers/cursor"
	"github.com/agentfmt/agentfmt/parsers/droid"
	"github.com/agentfmt/agentfmt/parsers/gemini"
	"github.com/agentfmt/agentfmt/parsers/goose"
	"github.com/agentfmt/agentfmt/parsers/grok"
	"github.com/agentfmt/agentfmt/parsers/kimi"
	"github.com/agentfmt/agentfmt/parsers/openclaw"
	"github.com/agentfmt/agentfmt/parsers/opencode"
	"github.com/agentfmt/agentfmt/parsers/pi"
)

// agentTests are the checks every agent gets alike, from one table: its
// fixtures (testdata/<folder>) and its real captures (../shared/corpus/
// <folder>). What is an agent's own stays in its package: its fuzz
// target, its Detect cases, its example, and the corpus tests of Claude,
// Codex and Cline, which check more than this.
var agentTests = []struct {
	folder string
	agent  parsers.Agent
	// corpus checks the captures (nil: checked in the agent's package, or
	// none). every: they are decoded by every agent, as the command does,
	// not by the agent alone.
	corpus *parsertest.CorpusOptions
	every  bool
}{
	{"acp", acp.Agent, &parsertest.CorpusOptions{Agent: "acp", Fixtures: true}, true},
	{"antigravity", antigravity.Agent, &parsertest.CorpusOptions{Agent: "antigravity", Fixtures: true}, true},
	{"claude", claude.Agent, nil, false},
	{"cline", cline.Agent, nil, false},
	{"codebuddy", codebuddy.Agent, &parsertest.CorpusOptions{Agent: "codebuddy", Fixtures: true, NoUnknown: true}, false},
	{"codex", codex.Agent, nil, false},
	{"copilot", copilot.Agent, &parsertest.CorpusOptions{Agent: "copilot", Fixtures: true}, true},
	{"cursor", cursor.Agent, &parsertest.CorpusOptions{Agent: "cursor", Fixtures: true}, true},
	{"droid", droid.Agent, &parsertest.CorpusOptions{Agent: "droid", Fixtures: true, NoUnknown: true}, false},
	{"gemini", gemini.Agent, &parsertest.CorpusOptions{NoUnknown: true}, false},
	{"goose", goose.Agent, nil, false},
	{"grok", grok.Agent, &parsertest.CorpusOptions{Agent: "grok", Fixtures: true, NoUnknown: true}, false},
	{"kimi", kimi.Agent, nil, false},
	{"openclaw", openclaw.Agent, &parsertest.CorpusOptions{Agent: "openclaw", Fixtures: true, NoUnknown: true}, false},
	{"opencode", opencode.Agent, &parsertest.CorpusOptions{NoUnknown: true}, false},
	{"pi", pi.Agent, &parsertest.CorpusOptions{Agent: "pi", Fixtures: true, NoUnknown: true}, false},
}

// TestAgentsTableWhole: the table has every agent of the registry.
func TestAgentsTableWhole(t *testing.T) {
	t.Parallel()
	in := map[string]bool{}
	for _, a := range agentTests {
		in[a.agent.Name] = true
	}
	for _, a := range all.Agents() {
		if !in[a.Name] {
			t.Errorf("agent %s is not in agentTests", a.Name)
		}
	}
}

// TestGolden runs every agent's fixtures through it alone (decoder and
// session): each decodes, and has a .json golden beside it that pins its
// events.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, a := range agentTests {
		t.Run(a.folder, func(t *testing.T) {
			t.Parallel()
			parsertest.Golden(t, []parsers.Agent{a.agent}, a.folder)
		})
	}
}

// TestCorpus runs every agent's real captures (and, as its options say,
// its fixtures) and checks them against the conformance extractor of its
// folder.
func TestCorpus(t *testing.T) {
	t.Parallel()
	for _, a := range agentTests {
		if a.corpus == nil {
			continue
		}
		t.Run(a.folder, func(t *testing.T) {
			t.Parallel()
			agents := []parsers.Agent{a.agent}
			if a.every {
				agents = all.Agents()
			}
			parsertest.Corpus(t, agents, a.folder, *a.corpus)
		})
	}
}
