package droid_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/droid"
	"github.com/agentfmt/agentfmt/streaming"
)

func TestDetect(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		{`{"type":"system","subtype":"init","cwd":"/","session_id":"s","tools":["Read","Execute"],"model":"m"}`, parsers.Decisive},
		{`{"type":"system","subtype":"init","cwd":"/","session_id":"s","tools":[],"model":"m"}`, parsers.Maybe},
		{`{"type":"message","role":"user","id":"u","text":"hi","timestamp":1760806427595,"session_id":"s"}`, parsers.Decisive},
		{`{"type":"tool_call","id":"c","messageId":"m","toolId":"LS","toolName":"LS","parameters":{}}`, parsers.Decisive},
		{`{"type":"tool_result","messageId":"m","toolId":"","isError":false,"value":"x"}`, parsers.Decisive},
		{`{"type":"error","source":"cli","message":"Exec ended early","timestamp":1}`, parsers.Decisive},
		{`{"type":"completion","finalText":"done","numTurns":1,"durationMs":5,"session_id":"s"}`, parsers.Decisive},
		// Claude's and Cursor's inits, Gemini's and Cline's lines.
		{`{"type":"system","subtype":"init","cwd":"/","session_id":"s","tools":["Bash"],"apiKeySource":"none","claude_code_version":"2.1.0"}`, parsers.No},
		{`{"type":"system","subtype":"init","apiKeySource":"env","cwd":"/","session_id":"s","model":"gpt-5","permissionMode":"default"}`, parsers.No},
		{`{"type":"message","timestamp":"2026-01-01T00:00:00Z","role":"assistant","content":"x","delta":true}`, parsers.No},
		{`{"timestamp":1,"source":"cli","id":"msg-1","type":"welcome","content":""}`, parsers.No},
		{`{"type":"error","message":"boom"}`, parsers.No},
	}
	for _, c := range cases {
		if got := droid.Agent.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}

// An error that does not repeat the message before it shows both; a
// completion after the error that ended the run adds nothing.
func TestErrorAfterOtherMessage(t *testing.T) {
	t.Parallel()
	in := `{"type":"system","subtype":"init","cwd":"/","session_id":"s","tools":["Execute"],"model":"m"}
{"type":"message","role":"assistant","id":"a","text":"Trying.","timestamp":1,"session_id":"s"}
{"type":"error","source":"cli","message":"rate limited","timestamp":2}
{"type":"completion","finalText":"","numTurns":1,"durationMs":5,"session_id":"s"}
`
	r := parsertest.Run(agents, in).Check(t)
	if got := r.Text(streaming.KindTextDelta); got != "Trying." {
		t.Errorf("text %q", got)
	}
	if res := r.Of(streaming.KindResult); len(res) != 1 || res[0].OK || res[0].Reason != "rate limited" {
		t.Errorf("results %+v", res)
	}
}
