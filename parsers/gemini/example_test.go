package gemini_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/gemini"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes Gemini CLI's `gemini -p --output-format stream-json`
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{"type":"init","timestamp":"2026-10-08T03:56:00.100Z","session_id":"9c9a14e1","model":"gemini-2.5-pro"}
{"type":"message","timestamp":"2026-10-08T03:56:00.101Z","role":"user","content":"Explain what main.go does"}
{"type":"message","timestamp":"2026-10-08T03:56:02.010Z","role":"assistant","content":"` + "`" + `main.go` + "`" + ` calls ","delta":true}
{"type":"message","timestamp":"2026-10-08T03:56:02.090Z","role":"assistant","content":"` + "`" + `cmd.Execute()` + "`" + `.","delta":true}
{"type":"result","timestamp":"2026-10-08T03:56:02.400Z","status":"success","stats":{"total_tokens":7386,"input_tokens":7352,"output_tokens":16,"duration_ms":2300,"tool_calls":0}}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{gemini.Agent}, parsers.DecoderOptions{}, sess)
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
	// session.start gemini "gemini-2.5-pro"
	// text.delta user "Explain what main.go does"
	// text.delta assistant "`main.go` calls "
	// text.delta assistant "`cmd.Execute()`."
	// result true
	// success "`main.go` calls `cmd.Execute()`."
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
