package goose_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/goose"
)

func TestDetect(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		{`{"type":"message","message":{"id":null,"role":"assistant","created":1,"content":[]}}`, parsers.Decisive},
		{`{"type":"complete","total_tokens":null}`, parsers.Decisive},
		{`{"type":"notification","extension_id":"developer","log":{"message":"x"}}`, parsers.Decisive},
		{`{"type":"error","error":"Headless run interrupted"}`, parsers.Maybe},
		// Droid's, Gemini's, CodeBuddy's and Cline's lines.
		{`{"type":"message","role":"user","id":"u","text":"hi","timestamp":1,"session_id":"s"}`, parsers.No},
		{`{"type":"message","timestamp":"2026","role":"assistant","content":"x","delta":true}`, parsers.No},
		{`{"type":"message","role":"assistant","id":"a","content":[{"type":"output_text","text":"x"}]}`, parsers.No},
		{`{"type":"error","message":"boom"}`, parsers.No},
	}
	for _, c := range cases {
		if got := goose.Agent.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}
