package cursor_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
)

// TestCorpus runs the real captures (../shared/corpus/cursor) and the
// fixtures through every registered agent, as the command does, and checks
// them against the conformance extractor.
func TestCorpus(t *testing.T) {
	parsertest.Corpus(t, all.Agents(), "cursor", parsertest.CorpusOptions{Agent: "cursor", Fixtures: true})
}
