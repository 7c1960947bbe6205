package cursor_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/cursor"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes Cursor CLI's `cursor-agent -p --output-format stream-json`
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/home/dev/app","session_id":"c0ffee00","model":"Auto","permissionMode":"default"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Reading calc.go."}]},"session_id":"c0ffee00"}
{"type":"tool_call","subtype":"started","call_id":"call_1","tool_call":{"readToolCall":{"args":{"path":"/home/dev/app/calc.go"}}},"session_id":"c0ffee00"}
{"type":"tool_call","subtype":"completed","call_id":"call_1","tool_call":{"readToolCall":{"args":{"path":"/home/dev/app/calc.go"},"result":{"success":{"content":"package calc\n","totalLines":1}}}},"session_id":"c0ffee00"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"It holds one package clause."}]},"session_id":"c0ffee00"}
{"type":"result","subtype":"success","duration_ms":4100,"is_error":false,"result":"Reading calc.go.It holds one package clause.","session_id":"c0ffee00"}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{cursor.Agent}, parsers.DecoderOptions{}, sess)
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
	// session.start cursor "Auto"
	// text.delta assistant "Reading calc.go."
	// tool.start read /home/dev/app/calc.go
	// tool.end read ok
	// text.delta assistant "It holds one package clause."
	// result true
	// success "It holds one package clause."
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
