package render

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/claude"
	"github.com/agentfmt/agentfmt/streaming"
)

// subj is the subject the parsers layer gives a Claude tool call with
// this input: render tests build events by hand, as a parser would hand
// them.
func subj(input string) string { return parsers.SubjectOf("", input, claude.Agent.Tools.Subject) }

// claudeEdits are the file edits the parsers layer finds in a Claude tool
// call's input.
func claudeEdits(name, input string) []streaming.FileEdit {
	return claude.Agent.Tools.Edits(name, input, "")
}
