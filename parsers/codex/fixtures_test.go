package codex_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/codex"
)

var agents = []parsers.Agent{codex.Agent}

func fixtures(t testing.TB) []string { return parsertest.Fixtures(t, "codex") }

// fixtureLines returns every line of every fixture (fuzz seeds).
func fixtureLines(t testing.TB) []string {
	var out []string
	for _, f := range fixtures(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, strings.Split(string(b), "\n")...)
	}
	return out
}
