package goose_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/goose"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes `goose run --output-format stream-json` with the parsers' kit
// alone: two chunks of one message are one message, and the
// complete line ends the run.
func Example() {
	const stream = `{"type":"message","message":{"id":"c1","role":"assistant","created":1,"content":[{"type":"text","text":"All"}]}}
{"type":"message","message":{"id":"c1","role":"assistant","created":1,"content":[{"type":"text","text":" done."}]}}
{"type":"complete","total_tokens":12,"input_tokens":10,"output_tokens":2}
`
	sess := streaming.NewSession(streaming.HandlerFunc(func(ev *streaming.Event) error {
		switch ev.Kind {
		case streaming.KindMessageStart, streaming.KindMessageStop:
			fmt.Println(ev.Kind, ev.Message)
		case streaming.KindTextDelta:
			fmt.Printf("%s %q\n", ev.Kind, ev.Text)
		case streaming.KindResult:
			fmt.Println(ev.Kind, ev.OK, ev.Usage.Total())
		}
		return nil
	}), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{goose.Agent}, parsers.DecoderOptions{}, sess)
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
	// message.start c1
	// text.delta "All"
	// text.delta " done."
	// message.stop c1
	// result true 12
}
