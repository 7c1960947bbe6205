package pi_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/pi"
)

var agents = []parsers.Agent{pi.Agent}

// FuzzParse feeds arbitrary input (seeded with the fixtures, whole and
// line by line) through the decoder and session: no panic, no error.
func FuzzParse(f *testing.F) {
	parsertest.SeedFixtures(f, "pi")
	f.Fuzz(func(t *testing.T, in string) { parsertest.CheckFuzz(t, agents, in) })
}
