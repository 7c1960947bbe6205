package claude_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/parsers/claude"
)

// fixtures lists the hand-written fixtures of testdata/claude.
func fixtures(t testing.TB) []string { return parsertest.Fixtures(t, "claude") }

// TestGolden renders each fixture's events (Dump form) and compares them
// with testdata/claude/NN-….events; go test -update rewrites them.
func TestGolden(t *testing.T) {
	parsertest.Golden(t, []parsers.Agent{claude.Agent}, "claude")
}
