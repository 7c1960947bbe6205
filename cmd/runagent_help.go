package cmd

import (
	"fmt"
	"strings"
)

// agentTable is the list of agents in 'agentfmt run --help', one line
// each: the names that select it and what 'run' adds to its command line,
// made from agentSpecs so that an agent added there is listed here.
func agentTable() string {
	rows := make([][2]string, 0, len(agentSpecs))
	pad := 0
	for _, s := range agentSpecs {
		names := strings.Join(s.names, ", ")
		pad = max(pad, len(names))
		rows = append(rows, [2]string{names, s.added()})
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %s\n", pad, r[0], r[1])
	}
	return strings.TrimRight(b.String(), "\n")
}

// added says what prepare adds to a command line that has none of it:
// "exec --json", "-p --output-format stream-json …", "… --stream-json"
// for flags that go after the user's arguments.
func (s *agentSpec) added() string {
	var words []string
	if len(s.sub) > 0 {
		words = append(words, s.sub[0])
	}
	if s.atEnd {
		words = append(words, "…")
	}
	if len(s.print) > 0 {
		words = append(words, s.print[0])
	}
	for _, f := range s.flags {
		words = append(words, f.add...)
	}
	return strings.Join(words, " ")
}
