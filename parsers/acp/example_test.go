package acp_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/acp"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes an Agent Client Protocol transcript (JSON-RPC between a client and an agent)
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/home/dev/app","mcpServers":[]}}
{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_01"}}
{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess_01","prompt":[{"type":"text","text":"Rename greet to hello"}]}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_01","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"I'll rename "}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_01","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"the function."}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_01","update":{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"Edit main.py","kind":"edit","status":"in_progress"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_01","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"completed"}}}
{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{acp.Agent}, parsers.DecoderOptions{}, sess)
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
	// session.start acp ""
	// text.delta user "Rename greet to hello"
	// text.delta assistant "I'll rename "
	// text.delta assistant "the function."
	// tool.start edit Edit main.py
	// tool.end edit ok
	// result true
	// success "I'll rename the function."
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
