package codex_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/codex"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes `codex exec --json`
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"I'll run the tests first."}}
{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc 'go test ./...'","aggregated_output":"","exit_code":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc 'go test ./...'","aggregated_output":"ok  \texample.com/calc\t0.01s\n","exit_code":0,"status":"completed"}}
{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"The tests pass."}}
{"type":"turn.completed","usage":{"input_tokens":2400,"cached_input_tokens":1800,"output_tokens":120}}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{codex.Agent}, parsers.DecoderOptions{}, sess)
	if err != nil {
		panic(err)
	}
	if err := dec.ReadAll(strings.NewReader(stream)); err != nil {
		panic(err)
	}
	if err := sess.Close(); err != nil {
		panic(err)
	}
	outcome, _ := sess.Outcome()
	fmt.Printf("%s %q\n", outcome, sess.FinalAnswer())
	// Output:
	// session.start codex ""
	// text.delta assistant "I'll run the tests first."
	// tool.start shell bash -lc 'go test ./...'
	// tool.end shell ok
	// text.delta assistant "The tests pass."
	// result true
	// success "The tests pass."
}

// printEvent prints what a reader of the run looks at: the run's start,
// the answer's text as it streams, tool calls and the result.
func printEvent(ev *streaming.Event) error {
	switch ev.Kind {
	case streaming.KindSessionStart:
		fmt.Printf("%s %s %q\n", ev.Kind, ev.Agent, ev.Model)
	case streaming.KindTextDelta:
		fmt.Printf("%s %s %q\n", ev.Kind, ev.Role, ev.Text)
	case streaming.KindToolStart:
		fmt.Println(ev.Kind, ev.Name, ev.Subject)
	case streaming.KindToolEnd:
		fmt.Println(ev.Kind, ev.Name, ev.Status)
	case streaming.KindResult:
		fmt.Println(ev.Kind, ev.OK)
	}
	return nil
}
