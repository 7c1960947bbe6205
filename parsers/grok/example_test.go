package grok_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/grok"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes `grok -p … --output-format streaming-json` (one token a
// line) with the parsers' kit alone: a parsers.Decoder for this
// package's Agent, a streaming.Session, and a handler for the events.
func Example() {
	const stream = `{"type":"text","data":"The answer"}
{"type":"text","data":" is 42."}
{"type":"usage","usage":{"input_tokens":10,"output_tokens":4},"signature":"opaque"}
{"type":"end","stopReason":"end_turn","sessionId":"s1","requestId":"r1","num_turns":1}
`
	sess := streaming.NewSession(streaming.HandlerFunc(func(ev *streaming.Event) error {
		switch ev.Kind {
		case streaming.KindTextDelta:
			fmt.Printf("%s %q\n", ev.Kind, ev.Text)
		case streaming.KindResult:
			fmt.Println(ev.Kind, ev.OK, ev.Turns)
		}
		return nil
	}), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{grok.Agent}, parsers.DecoderOptions{}, sess)
	if err != nil {
		panic(err)
	}
	if err := dec.ReadAll(strings.NewReader(stream)); err != nil {
		panic(err)
	}
	if err := sess.Close(); err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", sess.FinalAnswer())
	// Output:
	// text.delta "The answer"
	// text.delta " is 42."
	// result true 1
	// "The answer is 42."
}
