package grok_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/grok"
	"github.com/agentfmt/agentfmt/streaming"
)

func TestDetect(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		{`{"type":"thought","data":"The"}`, parsers.Decisive},
		{`{"type":"text","data":" "}`, parsers.Decisive},
		{`{"type":"usage","usage":{"input_tokens":1},"signature":"x"}`, parsers.Decisive},
		{`{"type":"tool_call","toolCallId":"c","title":"t","status":"pending","rawInput":{}}`, parsers.Decisive},
		{`{"type":"tool_call_update","toolCallId":"c","status":null}`, parsers.Decisive},
		{`{"type":"end","stopReason":"end_turn","sessionId":"s","requestId":"r"}`, parsers.Decisive},
		{`{"type":"available_commands_update","availableCommands":[{"name":"init"}]}`, parsers.Decisive},
		// OpenCode's text part, ACP inside JSON-RPC.
		{`{"type":"text","timestamp":1,"sessionID":"s","part":{"text":"x"}}`, parsers.No},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"tool_call","toolCallId":"c"}}}`, parsers.No},
	}
	for _, c := range cases {
		if got := grok.Agent.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}

// A stop reason other than the end of the turn: max_tokens says why and
// stays a success; another fails the run.
func TestStopReason(t *testing.T) {
	t.Parallel()
	for reason, ok := range map[string]bool{"end_turn": true, "max_tokens": true, "cancelled": false} {
		r := parsertest.Run(agents, `{"type":"text","data":"x"}`+"\n"+`{"type":"end","stopReason":"`+reason+`","requestId":"r"}`+"\n").Check(t)
		res := r.Of(streaming.KindResult)
		if len(res) != 1 || res[0].OK != ok {
			t.Errorf("%s: results %+v", reason, res)
		}
	}
}
