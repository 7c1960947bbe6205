package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// TestJSONOneLinePerEvent: -o json writes exactly one line per event,
// whatever the event embeds: pretty-printed tool input (a Cline MCP call),
// a multi-line unknown value (a saved chat read whole), input nested
// deeper than any recursive reader would go, and text that is not JSON.
func TestJSONOneLinePerEvent(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat(`{"a":[`, 200000) + "1" + strings.Repeat("]}", 200000)
	evs := []streaming.Event{
		{Kind: streaming.KindToolStart, ID: "t1", Name: "github.create_issue", Input: "{\n  \"title\": \"Crash on start\",\n  \"labels\": [\n    \"bug\"\n  ]\n}"},
		{Kind: streaming.KindUnknown, Type: "chat", Text: "{\n \"messages\": [\n  {\"role\": \"user\", \"text\": \"hi\\nthere\"}\n ]\n}"},
		{Kind: streaming.KindToolStart, ID: "t2", Name: "deep", Input: deep},
		{Kind: streaming.KindToolStart, ID: "t3", Name: "broken", Input: "{\n \"a\": "},
		{Kind: streaming.KindUnknown, Type: "x", Text: "not json\nat all"},
	}
	var out bytes.Buffer
	j := newJSON(&out, Config{})
	for i := range evs {
		if err := j.Handle(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(evs) {
		t.Fatalf("%d lines for %d events:\n%s", len(lines), len(evs), out.String()[:min(out.Len(), 2000)])
	}
	for i, l := range lines {
		if !json.Valid([]byte(l)) && i != 2 { // (encoding/json stops at depth 10000)
			t.Errorf("line %d is not JSON: %.200s", i+1, l)
		}
	}
	if !strings.Contains(lines[0], `"input":{"title":"Crash on start","labels":["bug"]}`) {
		t.Errorf("tool input not embedded compactly: %s", lines[0])
	}
	if !strings.Contains(lines[1], `"raw":{"messages":[{"role":"user","text":"hi\nthere"}]}`) {
		t.Errorf("unknown value not embedded compactly: %s", lines[1])
	}
	if !strings.Contains(lines[3], `"input":"{\n \"a\": "`) {
		t.Errorf("invalid input not embedded as a string: %s", lines[3])
	}
}

// TestJSONBigFieldsStreamed: a text or output of megabytes is written in
// pieces, byte for byte as AppendEventJSON would build it whole.
func TestJSONBigFieldsStreamed(t *testing.T) {
	t.Parallel()
	// Just over bigString: streamed, in many 64 KiB pieces.
	big := strings.Repeat("line \"quoted\" é日🎉 \u2028 \x01\n", (bigString+bigString/8)/30) + "\xff end"
	evs := []streaming.Event{
		{Kind: streaming.KindTextDelta, Agent: "claude", Line: 3, Message: "m1", Role: "assistant", Text: big},
		{Kind: streaming.KindResult, Agent: "claude", Line: 9, OK: true, Text: big, Reason: "end_turn"},
		{Kind: streaming.KindToolEnd, Agent: "codex", Line: 5, ID: "t1", Name: "bash", Status: streaming.ToolOK, Output: big, Input: `{"command":"cat big"}`},
	}
	for i := range evs {
		var out bytes.Buffer
		j := newJSON(&out, Config{})
		if err := j.Handle(&evs[i]); err != nil {
			t.Fatal(err)
		}
		if err := j.Flush(); err != nil {
			t.Fatal(err)
		}
		want := string(appendEventJSON(nil, &evs[i])) + "\n"
		if out.String() != want {
			t.Errorf("%s: streamed JSON differs from the whole (%d vs %d bytes)", evs[i].Kind, out.Len(), len(want))
		}
	}
}
