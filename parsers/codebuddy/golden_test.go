package codebuddy_test

import (
	"flag"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/parsers/codebuddy"
)

var update = flag.Bool("update", false, "rewrite golden files")

var agents = []parsers.Agent{codebuddy.Agent}

// TestGolden runs every fixture through the decoder and session and
// compares the event dump with the .events file beside it.
func TestGolden(t *testing.T) { parsertest.Golden(t, agents, "codebuddy", *update) }
