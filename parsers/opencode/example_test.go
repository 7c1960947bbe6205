package opencode_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/opencode"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes `opencode run --format json`
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{"type":"step_start","timestamp":1767036059338,"sessionID":"ses_1","part":{"id":"prt_1","sessionID":"ses_1","messageID":"msg_1","type":"step-start"}}
{"type":"text","timestamp":1767036060100,"sessionID":"ses_1","part":{"id":"prt_2","sessionID":"ses_1","messageID":"msg_1","type":"text","text":"I'll check the Go version.","time":{"start":1767036059900,"end":1767036060090}}}
{"type":"tool_use","timestamp":1767036061199,"sessionID":"ses_1","part":{"id":"prt_3","sessionID":"ses_1","messageID":"msg_1","type":"tool","callID":"call_1","tool":"bash","state":{"status":"completed","input":{"command":"go version"},"output":"go version go1.26.8 linux/amd64\n","title":"go version","metadata":{"exit":0},"time":{"start":1767036061123,"end":1767036061173}}}}
{"type":"step_finish","timestamp":1767036061205,"sessionID":"ses_1","part":{"id":"prt_4","sessionID":"ses_1","messageID":"msg_1","type":"step-finish","reason":"stop","cost":0.0021,"tokens":{"input":21772,"output":110,"reasoning":0,"cache":{"read":0,"write":0}}}}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{opencode.Agent}, parsers.DecoderOptions{}, sess)
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
	// session.start opencode ""
	// text.delta assistant "I'll check the Go version."
	// tool.start bash go version
	// tool.end bash ok
	// result true
	// success "I'll check the Go version."
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
