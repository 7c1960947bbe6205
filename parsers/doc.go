// Package parsers reads what coding agents print into agentfmt's events.
//
// Read takes a stream (a pipe from `claude -p --output-format
// stream-json`, a saved Codex run, a transcript) and yields its events,
// the agent detected from the first lines; Agents lists the agents it
// knows. The events are streaming.Event values that keep the streaming
// contract (text as deltas, every block and tool call closed, the run's
// outcome last) and that the loop owns: kept past the loop, they are what
// `agentfmt -o json` shows. A render.Renderer shows them.
//
//	for ev, err := range parsers.Read(f, parsers.Options{}) {
//		if err != nil {
//			return err
//		}
//		events = append(events, ev)
//	}
//
// Each agent's format is read by a package of its own (parsers/claude,
// parsers/codex, …), built on the parsers' kit in internal/parsers; docs/formats
// says what each reads.
package parsers
