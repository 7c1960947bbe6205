package antigravity_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/antigravity"
)

var agents = []parsers.Agent{antigravity.Agent}

// FuzzParse feeds arbitrary input (seeded with the fixtures, whole and
// line by line) through the decoder and session: no panic, no error, and
// text-like events leave the session as deltas.
func FuzzParse(f *testing.F) {
	parsertest.SeedFixtures(f, "antigravity")
	f.Fuzz(func(t *testing.T, in string) { parsertest.CheckFuzz(t, agents, in) })
}
