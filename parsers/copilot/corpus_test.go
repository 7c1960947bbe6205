package copilot_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
)

// TestCorpus runs the real captures (../shared/corpus/copilot) and the
// fixtures through every registered agent, as the command does, and checks
// them against the conformance extractor.
func TestCorpus(t *testing.T) {
	parsertest.Corpus(t, all.Agents(), "copilot", parsertest.CorpusOptions{Agent: "copilot", Fixtures: true})
}
