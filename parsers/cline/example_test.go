package cline_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/cline"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes Cline's `cline --output-format json` (say/ask messages; a partial message is sent again as it grows)
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{"type":"task_started","taskId":"1760501486000"}
{"ts":1760501486000,"type":"say","say":"text","text":"What does hello.py define?"}
{"ts":1760501486669,"type":"say","say":"text","text":"I'll read","partial":true}
{"ts":1760501486669,"type":"say","say":"text","text":"I'll read the file first.","partial":true}
{"ts":1760501486669,"type":"say","say":"text","text":"I'll read the file first.","partial":false}
{"ts":1760501488500,"type":"say","say":"completion_result","text":"hello.py defines greet(name).","partial":false}
{"ts":1760501488600,"type":"ask","ask":"completion_result","text":""}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{cline.Agent}, parsers.DecoderOptions{}, sess)
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
	// session.start cline ""
	// text.delta user "What does hello.py define?"
	// text.delta assistant "I'll read"
	// text.delta assistant " the file first."
	// text.delta assistant "hello.py defines greet(name)."
	// result true
	// success "hello.py defines greet(name)."
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
