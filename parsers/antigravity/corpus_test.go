package antigravity_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/all"
)

// TestCorpus runs the real captures (../shared/corpus/antigravity) and the
// fixtures through every registered agent, as the command does, and checks
// them against the conformance extractor.
func TestCorpus(t *testing.T) {
	parsertest.Corpus(t, all.Agents(), "antigravity", parsertest.CorpusOptions{Agent: "antigravity", Fixtures: true})
}
