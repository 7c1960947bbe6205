package acp_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/acp"
)

var agents = []parsers.Agent{acp.Agent}

// TestGolden runs every fixture through the decoder and session and
// checks that each decodes; the .json golden beside it pins its events.
func TestGolden(t *testing.T) { parsertest.Golden(t, agents, "acp") }
