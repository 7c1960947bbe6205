package codebuddy_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/codebuddy"
)

var agents = []parsers.Agent{codebuddy.Agent}

// FuzzParse feeds arbitrary input (seeded with the fixtures, whole and
// line by line) through the decoder and session: no panic, no error.
func FuzzParse(f *testing.F) {
	parsertest.SeedFixtures(f, "codebuddy")
	f.Fuzz(func(t *testing.T, in string) { parsertest.CheckFuzz(t, agents, in) })
}
