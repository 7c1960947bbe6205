package codebuddy_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/codebuddy"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes CodeBuddy Code's `codebuddy -p --output-format stream-json` (Claude Code's shapes, with log lines)
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{"type":"log","log":{"level":"info","message":"CodeBuddy Code starting"}}
{"type":"system","subtype":"init","session_id":"7d1c2f00","cwd":"/home/dev/app","model":"hunyuan-2.0-thinking","tools":["Bash","Read"]}
{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"The service listens on port 8080."}]},"session_id":"7d1c2f00","parent_tool_use_id":null}
{"type":"result","subtype":"success","is_error":false,"result":"The service listens on port 8080.","session_id":"7d1c2f00","duration_ms":2100,"num_turns":1}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{codebuddy.Agent}, parsers.DecoderOptions{}, sess)
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
	// session.start codebuddy "hunyuan-2.0-thinking"
	// text.delta assistant "The service listens on port 8080."
	// result true
	// success "The service listens on port 8080."
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
