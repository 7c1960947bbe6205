package opencode_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/opencode"
)

func TestDetect(t *testing.T) {
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		{stepStart("m1"), parsers.Decisive},
		{stepFinish("m1", "stop"), parsers.Decisive},
		{text("m1", "p1", "hi"), parsers.Decisive},
		{reasoning("m1", "r1", "hm"), parsers.Decisive},
		{tool("m1", "c1", "bash", bashOK), parsers.Decisive},
		{env("error", `"error":{"name":"APIError","data":{"message":"x"}}`), parsers.Decisive},
		{env("done", `"reason":"idle","rejected":[]`), parsers.Decisive},
		{`{"type":"text","part":{"type":"text","text":"no session"}}`, parsers.Maybe},
		// Other agents' lines.
		{`{"type":"tool_use","timestamp":"2025-10-29T10:37:08.885Z","tool_name":"replace","tool_id":"r1","parameters":{}}`, parsers.No},
		{`{"type":"error","timestamp":"2025-10-29T10:37:08.885Z","severity":"warning","message":"Loop detected"}`, parsers.No},
		{`{"type":"init","session_id":"s","model":"gemini-2.5-pro"}`, parsers.No},
		{`{"type":"error","message":"Reconnecting... 2/5"}`, parsers.No},
		{`{"type":"system","subtype":"init","session_id":"s"}`, parsers.No},
		{`{"type":"assistant","message":{"content":[{"type":"text","text":"x"}]},"session_id":"s"}`, parsers.No},
		{`{"type":"thread.started","thread_id":"t"}`, parsers.No},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`, parsers.No},
		{`{"timestamp":1,"source":"extension","type":"say","say":"text","content":"hi"}`, parsers.No},
	}
	for _, c := range cases {
		if got := opencode.Agent.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}
