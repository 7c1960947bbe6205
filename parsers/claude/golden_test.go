package claude_test

import (
	"flag"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/parsers/claude"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fixtures lists the hand-written fixtures of testdata/claude.
func fixtures(t testing.TB) []string { return parsertest.Fixtures(t, "claude") }

// TestGolden renders each fixture's events (Dump form) and compares them
// with testdata/claude/NN-….events; -update rewrites them.
func TestGolden(t *testing.T) {
	parsertest.Golden(t, []parsers.Agent{claude.Agent}, "claude", *update)
}
