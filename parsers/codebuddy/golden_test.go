package codebuddy_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/codebuddy"
)

var agents = []parsers.Agent{codebuddy.Agent}

// TestGolden runs every fixture through the decoder and session and
// checks that each decodes; the .json golden beside it pins its events.
func TestGolden(t *testing.T) { parsertest.Golden(t, agents, "codebuddy") }
