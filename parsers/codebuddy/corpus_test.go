package codebuddy_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
)

// TestCorpus renders every real capture, and the fixtures, and checks each
// against the independent reading of conformance/codebuddy.go: each assistant
// text once, the outcome the run calls for, the final answer, no unknown
// events, every line read by this parser.
func TestCorpus(t *testing.T) {
	parsertest.Corpus(t, agents, "codebuddy", parsertest.CorpusOptions{Agent: "codebuddy", Fixtures: true, NoUnknown: true})
}
