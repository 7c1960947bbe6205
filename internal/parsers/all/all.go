// Package all is the registry of every supported agent, in detection
// priority order: when two agents score the same on a line, the first wins.
package all

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/acp"
	"github.com/agentfmt/agentfmt/parsers/antigravity"
	"github.com/agentfmt/agentfmt/parsers/claude"
	"github.com/agentfmt/agentfmt/parsers/cline"
	"github.com/agentfmt/agentfmt/parsers/codebuddy"
	"github.com/agentfmt/agentfmt/parsers/codex"
	"github.com/agentfmt/agentfmt/parsers/copilot"
	"github.com/agentfmt/agentfmt/parsers/cursor"
	"github.com/agentfmt/agentfmt/parsers/droid"
	"github.com/agentfmt/agentfmt/parsers/gemini"
	"github.com/agentfmt/agentfmt/parsers/goose"
	"github.com/agentfmt/agentfmt/parsers/grok"
	"github.com/agentfmt/agentfmt/parsers/kimi"
	"github.com/agentfmt/agentfmt/parsers/openclaw"
	"github.com/agentfmt/agentfmt/parsers/opencode"
	"github.com/agentfmt/agentfmt/parsers/pi"
)

// Agents returns the registry.
func Agents() []parsers.Agent {
	return []parsers.Agent{
		claude.Agent,
		// After claude: an init with neither's own fields is Claude's.
		droid.Agent,
		codex.Agent,
		gemini.Agent,
		opencode.Agent,
		cursor.Agent,
		acp.Agent,
		cline.Agent,
		copilot.Agent,
		antigravity.Agent,
		pi.Agent,
		grok.Agent,
		// After claude: its result lines are decisive where Claude's are.
		codebuddy.Agent,
		openclaw.Agent,
		goose.Agent,
		kimi.Agent,
	}
}

// Names lists the names --agent accepts.
func Names() []string {
	var names []string
	for _, a := range Agents() {
		names = append(names, a.Name)
	}
	return names
}
