package gemini_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
)

// TestCorpus renders every real capture and checks it against the
// independent reading of conformance/gemini.go: each assistant text once,
// the outcome the run calls for, the final answer, no unknown events.
func TestCorpus(t *testing.T) {
	parsertest.Corpus(t, agents, "gemini", parsertest.CorpusOptions{NoUnknown: true})
}
