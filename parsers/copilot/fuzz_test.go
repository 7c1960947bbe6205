package copilot_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/copilot"
)

var agents = []parsers.Agent{copilot.Agent}

// FuzzParse feeds arbitrary input (seeded with the fixtures, whole and
// line by line) through the decoder and session: no panic, no error, and
// text-like events leave the session as deltas.
func FuzzParse(f *testing.F) {
	parsertest.SeedFixtures(f, "copilot")
	f.Fuzz(func(t *testing.T, in string) { parsertest.CheckFuzz(t, agents, in) })
}
