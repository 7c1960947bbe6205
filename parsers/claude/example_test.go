package claude_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/claude"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes Claude Code's `claude -p --output-format stream-json --verbose` (here without partial messages: whole assistant frames)
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5","cwd":"/work","tools":["Bash"]}
{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"Counting the files."},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls | wc -l"}}]},"session_id":"s1","parent_tool_use_id":null}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"12","is_error":false}]},"session_id":"s1","parent_tool_use_id":null}
{"type":"assistant","message":{"id":"msg_2","role":"assistant","content":[{"type":"text","text":"There are 12 files."}]},"session_id":"s1","parent_tool_use_id":null}
{"type":"result","subtype":"success","is_error":false,"result":"There are 12 files.","session_id":"s1","num_turns":2,"duration_ms":4200}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{claude.Agent}, parsers.DecoderOptions{}, sess)
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
	// session.start claude "claude-sonnet-4-5"
	// text.delta assistant "Counting the files."
	// tool.start Bash ls | wc -l
	// tool.end Bash ok
	// text.delta assistant "There are 12 files."
	// result true
	// success "There are 12 files."
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
