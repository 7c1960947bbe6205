package antigravity_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/antigravity"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes the Antigravity CLI's `agy -p --output-format stream-json`
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{"event":"init","conversation_id":"9c1d2e3f","init":{"model":"gemini-3.1-pro-high","cwd":"/home/dev/app"}}
{"event":"step_update","step_update":{"conversation_id":"9c1d2e3f","step_index":1,"state":"ACTIVE","step_type":"agent_response","text_delta":"The logs directory holds "}}
{"event":"step_update","step_update":{"conversation_id":"9c1d2e3f","step_index":1,"state":"DONE","step_type":"agent_response","text_delta":"3 files.\n"}}
{"event":"result","result":{"conversation_id":"9c1d2e3f","status":"SUCCESS","response":"The logs directory holds 3 files.\n","duration_seconds":5.42,"num_turns":1}}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{antigravity.Agent}, parsers.DecoderOptions{}, sess)
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
	// session.start antigravity "gemini-3.1-pro-high"
	// text.delta assistant "The logs directory holds "
	// text.delta assistant "3 files.\n"
	// result true
	// success "The logs directory holds 3 files.\n"
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
