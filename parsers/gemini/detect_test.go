package gemini_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/gemini"
)

func TestDetect(t *testing.T) {
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		// Gemini's own lines.
		{initLine, parsers.Decisive},
		{`{"type":"init","timestamp":"<TIMESTAMP>","session_id":"test-session-id","model":"test-model"}`, parsers.Decisive},
		{userLine, parsers.Decisive},
		{delta("x"), parsers.Decisive},
		{`{"type":"tool_use","tool_name":"read_file","tool_id":"r1","parameters":{}}`, parsers.Decisive},
		{`{"type":"tool_result","tool_id":"r1","status":"success"}`, parsers.Decisive},
		{`{"type":"error","severity":"warning","message":"Loop detected"}`, parsers.Maybe},
		{okLine, parsers.Maybe},
		{`{"session_id":"s","response":"hi","stats":{}}`, parsers.Decisive},
		{`{"session_id":"s","error":{"type":"FatalAuthenticationError","message":"no auth"}}`, parsers.Maybe},
		// Other agents' lines.
		{`{"type":"tool_use","timestamp":1767036061199,"sessionID":"ses_1","part":{"type":"tool","callID":"c","tool":"bash","state":{"status":"completed"}}}`, parsers.No},
		{`{"type":"error","timestamp":1767037001000,"sessionID":"ses_1","error":{"name":"APIError","data":{"message":"x"}}}`, parsers.No},
		{`{"type":"text","sessionID":"ses_1","part":{"type":"text","text":"hi"}}`, parsers.No},
		{`{"type":"system","subtype":"init","session_id":"s","model":"claude","tools":[]}`, parsers.No},
		{`{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"s"}`, parsers.No},
		{`{"type":"assistant","message":{"type":"message","role":"assistant","content":[]},"session_id":"s"}`, parsers.No},
		{`{"type":"thread.started","thread_id":"t"}`, parsers.No},
		{`{"type":"error","message":"Reconnecting... 2/5"}`, parsers.No},
		{`{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"hello"}}`, parsers.No},
		{`{"id":"0","msg":{"type":"agent_message","message":"hi"}}`, parsers.No},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk"}}}`, parsers.No},
		{`{"timestamp":1763415435573,"source":"extension","type":"say","say":"text","content":"Say hi"}`, parsers.No},
		{`{"type":"gemini","content":"chat log","toolCalls":[]}`, parsers.No},
	}
	for _, c := range cases {
		if got := gemini.Agent.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}
