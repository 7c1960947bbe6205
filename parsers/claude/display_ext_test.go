package claude_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// The parser fills Event.Display of a tool.end, in a stream and in a
// transcript; Output stays as it came (json shows it).
func TestToolResultDisplay(t *testing.T) {
	const out = `     1→package a\n\n<system-reminder>\nmalware?\n</system-reminder>\n`
	for name, lines := range map[string][]string{
		"stream": {initLine,
			`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a.go"}}]},"parent_tool_use_id":null,"session_id":"s1"}`,
			`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"` + out + `"}]},"parent_tool_use_id":null,"session_id":"s1"}`},
		"transcript": {
			`{"type":"assistant","uuid":"a1","parentUuid":null,"sessionId":"s1","cwd":"/p","version":"2.0.1","timestamp":"2025-01-01T00:00:00Z","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a.go"}}]}}`,
			`{"type":"user","uuid":"u1","parentUuid":"a1","sessionId":"s1","cwd":"/p","version":"2.0.1","timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"` + out + `"}]}}`},
	} {
		r := run(t, lines...)
		found := false
		for _, ev := range r.Events {
			if ev.Kind != streaming.KindToolEnd {
				continue
			}
			found = true
			if ev.Display != "     1→package a" || ev.Output != "     1→package a\n\n<system-reminder>\nmalware?\n</system-reminder>\n" {
				t.Errorf("%s: tool.end Display %q, Output %q", name, ev.Display, ev.Output)
			}
		}
		if !found {
			t.Errorf("%s: no tool.end", name)
		}
	}
}
