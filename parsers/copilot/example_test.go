package copilot_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/copilot"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes GitHub Copilot CLI's `copilot -p --output-format json`
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{"type":"user.message","data":{"content":"Why does the build fail?"},"id":"ev-1","timestamp":"2026-10-03T00:42:04.44Z"}
{"type":"assistant.turn_start","data":{"turnId":"0"},"id":"ev-2","timestamp":"2026-10-03T00:42:05.55Z"}
{"type":"assistant.message_delta","data":{"messageId":"msg-1","deltaContent":"` + "`" + `TestParse` + "`" + ` fails: "},"ephemeral":true,"id":"ev-3","timestamp":"2026-10-03T00:42:21.0Z"}
{"type":"assistant.message_delta","data":{"messageId":"msg-1","deltaContent":"the parser drops a field."},"ephemeral":true,"id":"ev-4","timestamp":"2026-10-03T00:42:22.11Z"}
{"type":"assistant.message","data":{"messageId":"msg-1","content":"` + "`" + `TestParse` + "`" + ` fails: the parser drops a field.","toolRequests":[],"turnId":"0"},"id":"ev-5","timestamp":"2026-10-03T00:42:24.33Z"}
{"type":"assistant.turn_end","data":{"turnId":"0"},"id":"ev-6","timestamp":"2026-10-03T00:42:25.44Z"}
{"type":"result","timestamp":"2026-10-03T00:43:10.9Z","sessionId":"8111483c","exitCode":0}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{copilot.Agent}, parsers.DecoderOptions{}, sess)
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
	// session.start copilot ""
	// text.delta user "Why does the build fail?"
	// text.delta assistant "`TestParse` fails: "
	// text.delta assistant "the parser drops a field."
	// result true
	// success "`TestParse` fails: the parser drops a field."
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
