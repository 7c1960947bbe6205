package codex

import (
	"reflect"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// TestDescribeSpellings: an exec item and the same app-server item, each
// in its own spelling, describe the same tool call and the same end.
func TestDescribeSpellings(t *testing.T) {
	t.Parallel()
	app := appSpelling
	app.agents = execSpelling.agents
	for _, c := range []struct{ exec, app string }{
		{`{"type":"command_execution","command":"ls -1","cwd":"/w","aggregated_output":"a\nb\n","exit_code":2,"duration_ms":7,"status":"failed"}`,
			`{"type":"commandExecution","command":"ls -1","cwd":"/w","aggregatedOutput":"a\nb\n","exitCode":2,"durationMs":7,"status":"failed"}`},
		{`{"type":"file_change","changes":[{"path":"/a.go","kind":"update"},{"path":"/b.go","kind":"add"}],"status":"completed"}`,
			`{"type":"fileChange","changes":[{"path":"/a.go","kind":"update"},{"path":"/b.go","kind":"add"}],"status":"completed"}`},
		{`{"type":"mcp_tool_call","server":"gh","tool":"search","arguments":{"q":"x"},"error":{"message":"denied"},"status":"failed"}`,
			`{"type":"mcpToolCall","server":"gh","tool":"search","arguments":{"q":"x"},"error":{"message":"denied"},"status":"failed"}`},
		{`{"type":"web_search","action":{"type":"search","query":"go iter","queries":["go iter","iter.Seq2"]}}`,
			`{"type":"webSearch","action":{"type":"search","query":"go iter","queries":["go iter","iter.Seq2"]}}`},
		{`{"type":"web_search","action":{"type":"find_in_page","url":"https://go.dev","pattern":"Seq2"}}`,
			`{"type":"webSearch","action":{"type":"find_in_page","url":"https://go.dev","pattern":"Seq2"}}`},
		{`{"type":"collab_tool_call","tool":"wait","receiver_thread_ids":["t1","t2"],"agents_states":{"t1":{"status":"done","message":"ok"}},"status":"completed"}`,
			`{"type":"collabAgentToolCall","tool":"wait","receiverThreadIds":["t1","t2"],"agentsStates":{"t1":{"status":"done","message":"ok"}},"status":"completed"}`},
	} {
		var got [2]streaming.Event
		for i, sp := range []*spelling{&execSpelling, &app} {
			it := gjson.Parse([]string{c.exec, c.app}[i])
			typ := it.Get("type").String()
			k := itemKinds[typ]
			if !k.isTool() {
				t.Fatalf("%s is not a tool item", typ)
			}
			describe(sp, &got[i], k, "", it)
			describeEnd(sp, &got[i], k, it)
		}
		if !reflect.DeepEqual(got[0], got[1]) {
			t.Errorf("exec and app-server spellings differ:\n exec %+v\n app  %+v", got[0], got[1])
		}
		if got[0].Name == "" || got[0].Status == "" {
			t.Errorf("%s: no name or status: %+v", c.exec, got[0])
		}
	}
}

// TestCompletedWithoutExit: a command completed without an exit code is
// cut off in exec (older builds force-complete running commands), done
// in the app-server.
func TestCompletedWithoutExit(t *testing.T) {
	t.Parallel()
	for sp, want := range map[*spelling]streaming.ToolStatus{&execSpelling: streaming.ToolIncomplete, &appSpelling: streaming.ToolOK} {
		var ev streaming.Event
		describeEnd(sp, &ev, itemCommand, gjson.Parse(`{"status":"completed"}`))
		if ev.Status != want {
			t.Errorf("%s: status %q, want %q", sp.output, ev.Status, want)
		}
	}
}
