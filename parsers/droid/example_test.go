package droid_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/droid"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes `droid exec --output-format stream-json` with the parsers' kit
// alone: a parsers.Decoder for this package's Agent, a
// streaming.Session that enforces the streaming contract, and a handler
// for the events.
func Example() {
	const stream = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Execute"],"model":"gpt-5-codex"}
{"type":"tool_call","id":"call_1","messageId":"m1","toolId":"Execute","toolName":"Execute","parameters":{"command":"go test ./..."},"timestamp":1,"session_id":"s1"}
{"type":"tool_result","id":"call_1","messageId":"m2","toolId":"","isError":false,"value":"ok\n\n[Process exited with code 0]","timestamp":2,"session_id":"s1"}
{"type":"message","role":"assistant","id":"a1","text":"Tests pass.","timestamp":3,"session_id":"s1"}
{"type":"completion","finalText":"Tests pass.","numTurns":2,"durationMs":3000,"session_id":"s1","timestamp":4}
`
	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{droid.Agent}, parsers.DecoderOptions{}, sess)
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
	// session.start droid "gpt-5-codex"
	// tool.start Execute go test ./...
	// tool.end Execute ok 0
	// text.delta assistant "Tests pass."
	// result true
	// success "Tests pass."
}

// printEvent prints what a reader of the run looks at.
func printEvent(ev *streaming.Event) error {
	switch ev.Kind {
	case streaming.KindSessionStart:
		fmt.Printf("%s %s %q\n", ev.Kind, ev.Agent, ev.Model)
	case streaming.KindTextDelta:
		fmt.Printf("%s %s %q\n", ev.Kind, ev.Role, ev.Text)
	case streaming.KindToolStart:
		fmt.Println(ev.Kind, ev.Name, ev.Subject)
	case streaming.KindToolEnd:
		fmt.Println(ev.Kind, ev.Name, ev.Status, *ev.ExitCode)
	case streaming.KindResult:
		fmt.Println(ev.Kind, ev.OK)
	}
	return nil
}
