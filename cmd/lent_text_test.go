package cmd

import (
	"strings"
	"testing"
)

// TestMarkdownFenceOverLentLines: a code fence opened in one streamed
// delta and closed in a later one, through -o markdown. The Claude
// parser's lines are the reader's memory, overwritten once each is
// decoded (Env.Scribble), and so is the scratch space a long string with
// escapes is decoded into: a renderer that kept the opening fence as a
// part of its event's text instead of a copy no longer sees it close.
func TestMarkdownFenceOverLentLines(t *testing.T) {
	t.Parallel()
	delta := func(s string) string {
		return `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + s + `"}},"session_id":"s1","parent_tool_use_id":null}`
	}
	in := strings.Join([]string{
		`{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/","tools":[],"claude_code_version":"2.1.207"}`,
		`{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_1","role":"assistant","content":[]}},"session_id":"s1","parent_tool_use_id":null}`,
		`{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}},"session_id":"s1","parent_tool_use_id":null}`,
		delta(strings.Repeat("Here is a line long enough to be decoded into the line's scratch space. ", 4) + `\n~~~~go\n`),
		delta(`x := 1\n`),
		delta(`~~~~\nDone <b>.\n`),
		`{"type":"stream_event","event":{"type":"content_block_stop","index":0},"session_id":"s1","parent_tool_use_id":null}`,
		`{"type":"stream_event","event":{"type":"message_stop"},"session_id":"s1","parent_tool_use_id":null}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s1","num_turns":1}`,
	}, "\n") + "\n"
	r := cli{args: []string{"-o", "markdown"}, stdin: strings.NewReader(in)}.run(t)
	want := "~~~~go\nx := 1\n~~~~\nDone &lt;b>.\n"
	if !strings.Contains(r.stdout, want) {
		t.Fatalf("markdown:\n%s\nwant it to hold\n%s", r.stdout, want)
	}
}
