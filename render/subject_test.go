package render

import "github.com/agentfmt/agentfmt/parsers"

// subj is the subject the parsers layer gives a tool call with this
// input: render tests build events by hand, as a parser would hand them.
func subj(input string) string { return parsers.Subject("", input) }
