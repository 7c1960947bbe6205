package claude_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/claude"
)

// fixtures lists the hand-written fixtures of testdata/claude.
func fixtures(t testing.TB) []string { return parsertest.Fixtures(t, "claude") }

// TestGolden runs every fixture through the decoder and session and
// checks that each decodes; the .json golden beside it pins its events.
func TestGolden(t *testing.T) {
	parsertest.Golden(t, []parsers.Agent{claude.Agent}, "claude")
}
