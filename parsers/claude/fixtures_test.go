package claude_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
)

// fixtures lists the hand-written fixtures of testdata/claude.
func fixtures(t testing.TB) []string { return parsertest.Fixtures(t, "claude") }
