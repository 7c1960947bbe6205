package kimi_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/kimi"
	"github.com/agentfmt/agentfmt/streaming"
)

func TestDetect(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		{`{"role":"assistant","content":[{"type":"think","think":"x"}]}`, parsers.Decisive},
		{`{"role":"assistant","tool_calls":[]}`, parsers.Decisive},
		{`{"role":"tool","content":"a","tool_call_id":"t"}`, parsers.Decisive},
		{`{"role":"meta","type":"system.version","version":"2.1.1"}`, parsers.Decisive},
		{`{"role":"assistant","content":"done"}`, parsers.Maybe},
		// Lines with a type: Gemini's, Droid's.
		{`{"type":"message","role":"assistant","content":"x","delta":true}`, parsers.No},
		{`{"type":"message","role":"user","id":"u","text":"hi","timestamp":1}`, parsers.No},
	}
	for _, c := range cases {
		if got := kimi.Agent.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}

// A call whose result never came leaves the run incomplete: the end of
// input ends only a run with every call answered.
func TestCutAfterCall(t *testing.T) {
	t.Parallel()
	r := parsertest.Run(agents, `{"role":"assistant","tool_calls":[{"type":"function","id":"t1","function":{"name":"Shell","arguments":"{}"}}]}`+"\n").Check(t)
	if res := r.Of(streaming.KindResult); len(res) != 0 {
		t.Errorf("results %+v, want none", res)
	}
}
