package kimi_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/kimi"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes `kimi --print --output-format stream-json` with the parsers' kit
// alone: a step's message with a tool call, its result without
// Kimi's note to the model, the answer; the end of input ends the run.
func Example() {
	const stream = `{"role":"assistant","content":[{"type":"text","text":"Checking."}],"tool_calls":[{"type":"function","id":"tool_1","function":{"name":"Shell","arguments":"{\"command\": \"pwd\"}"}}]}
{"role":"tool","content":[{"type":"text","text":"<system>Tool completed successfully.</system>"},{"type":"text","text":"/work\n"}],"tool_call_id":"tool_1"}
{"role":"assistant","content":[{"type":"text","text":"You are in /work."}]}
`
	sess := streaming.NewSession(streaming.HandlerFunc(func(ev *streaming.Event) error {
		switch ev.Kind {
		case streaming.KindTextDelta:
			fmt.Printf("%s %q\n", ev.Kind, ev.Text)
		case streaming.KindToolStart:
			fmt.Println(ev.Kind, ev.Name, ev.Subject)
		case streaming.KindToolEnd:
			fmt.Printf("%s %s %q\n", ev.Kind, ev.Status, ev.Output)
		case streaming.KindResult:
			fmt.Println(ev.Kind, ev.OK)
		}
		return nil
	}), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{kimi.Agent}, parsers.DecoderOptions{}, sess)
	if err != nil {
		panic(err)
	}
	if err := dec.ReadAll(strings.NewReader(stream)); err != nil {
		panic(err)
	}
	if err := sess.Close(); err != nil {
		panic(err)
	}
	// Output:
	// text.delta "Checking."
	// tool.start Shell pwd
	// tool.end ok "/work\n"
	// text.delta "You are in /work."
	// result true
}
