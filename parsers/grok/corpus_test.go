package grok_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
)

// TestCorpus renders every real capture, and the fixtures, and checks each
// against the independent reading of conformance/grok.go: each assistant
// text once, the outcome the run calls for, the final answer, no unknown
// events, every line read by this parser.
func TestCorpus(t *testing.T) {
	parsertest.Corpus(t, agents, "grok", parsertest.CorpusOptions{Agent: "grok", Fixtures: true, NoUnknown: true})
}
