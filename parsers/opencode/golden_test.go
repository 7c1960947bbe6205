package opencode_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/opencode"
)

var agents = []parsers.Agent{opencode.Agent}

// TestGolden runs every fixture through the decoder and session and
// checks that each decodes; the .json golden beside it pins its events.
func TestGolden(t *testing.T) { parsertest.Golden(t, agents, "opencode") }
