package pi_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/pi"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes the pi coding agent's `pi --mode json`
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{"type":"session","version":3,"id":"019f5b10","timestamp":"2026-08-01T10:00:00.000Z","cwd":"/home/dev/proj"}
{"type":"agent_start"}
{"type":"turn_start"}
{"type":"message_start","message":{"role":"assistant","content":[],"provider":"anthropic","model":"claude-sonnet-4-5"}}
{"type":"message_update","assistantMessageEvent":{"type":"text_start","contentIndex":0}}
{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"It starts the HTTP server "}}
{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"on :8080."}}
{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"It starts the HTTP server on :8080."}],"provider":"anthropic","model":"claude-sonnet-4-5","stopReason":"stop"}}
{"type":"turn_end"}
{"type":"agent_end","messages":[]}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{pi.Agent}, parsers.DecoderOptions{}, sess)
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
	// session.start pi ""
	// text.delta assistant "It starts the HTTP server "
	// text.delta assistant "on :8080."
	// result true
	// success "It starts the HTTP server on :8080."
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
