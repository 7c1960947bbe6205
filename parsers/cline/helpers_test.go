package cline_test

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/cline"
)

var agents = []parsers.Agent{cline.Agent}
