package acp_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/acp"
)

var agents = []parsers.Agent{acp.Agent}

// FuzzParse feeds arbitrary input (seeded with the fixtures, whole and
// line by line) through the decoder and session: no panic, no error, and
// text-like events leave the session as deltas.
func FuzzParse(f *testing.F) {
	parsertest.SeedFixtures(f, "acp")
	f.Fuzz(func(t *testing.T, in string) { parsertest.CheckFuzz(t, agents, in) })
}
