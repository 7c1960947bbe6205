package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// TestJSONEscapesTerminalControls: the json renderer keeps content as JSON
// strings, with nothing a terminal would obey left raw in them.
func TestJSONEscapesTerminalControls(t *testing.T) {
	t.Parallel()
	in := "a\x1b]0;t\x07b\u009b2Jc\u202ed\u2066e\x7ff\xffg\u2028h"
	ev := streaming.Event{Kind: streaming.KindTextDelta, Agent: "claude", Line: 3, Message: "m", Text: in}
	out := string(appendEventJSON(nil, &ev))
	for _, raw := range []string{"\x1b", "\x07", "\u009b", "\u202e", "\u2066", "\x7f", "\xff", "\u2028"} {
		if strings.Contains(out, raw) {
			t.Errorf("raw %q in %s", raw, out)
		}
	}
	var v struct {
		V    int    `json:"v"`
		Kind string `json:"kind"`
		Line int    `json:"line"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, out)
	}
	want := strings.ReplaceAll(in, "\xff", "\uFFFD")
	if v.V != 1 || v.Kind != "text.delta" || v.Line != 3 || v.Text != want {
		t.Errorf("decoded %+v, want text %q", v, want)
	}
}

// TestJSONEveryKindIsValid renders one event of every kind and checks it
// decodes with the documented common fields.
func TestJSONEveryKindIsValid(t *testing.T) {
	t.Parallel()
	code := 2
	kinds := []streaming.Event{
		{Kind: streaming.KindSessionStart, SessionID: "s", Model: "m", CWD: "/", Tools: []string{"Bash"}},
		{Kind: streaming.KindMessageStart, Message: "m", Role: "assistant"},
		{Kind: streaming.KindMessageStop, Message: "m"},
		{Kind: streaming.KindTextDelta, Message: "m", Text: "x"},
		{Kind: streaming.KindTextRevision, Message: "m", Text: "y"},
		{Kind: streaming.KindTextSentence, Message: "m", Text: "Hi."},
		{Kind: streaming.KindThinkingDelta, Message: "m", Text: "hmm"},
		{Kind: streaming.KindToolStart, ID: "t", Name: "Bash", Input: `{"command":"ls"}`, Subject: subj(`{"command":"ls"}`)},
		{Kind: streaming.KindToolStart, ID: "t2", Name: "Bash", Input: `not json`, Subject: subj(`not json`)},
		{Kind: streaming.KindToolInputDelta, ID: "t", Text: `{"com`},
		{Kind: streaming.KindToolOutputDelta, ID: "t", Text: "out"},
		{Kind: streaming.KindToolEnd, ID: "t", Status: streaming.ToolError, Output: "boom", ExitCode: &code, DurationMS: 12},
		{Kind: streaming.KindPlan, Entries: []streaming.PlanEntry{{Text: "a", Status: "pending", Priority: "high"}}},
		{Kind: streaming.KindPermissionRequest, ID: "p", Name: "Bash", Options: []streaming.PermissionOption{{ID: "o", Name: "Allow", Kind: "allow_once"}}},
		{Kind: streaming.KindPermissionResponse, ID: "p", Choice: "o"},
		{Kind: streaming.KindModeChange, From: "a", To: "b"},
		{Kind: streaming.KindStatus, Text: "retry", Level: streaming.LevelWarning},
		{Kind: streaming.KindUsage, Usage: &streaming.Usage{InputTokens: 1, OutputTokens: 2, CostUSD: 0.5, HasCost: true}},
		{Kind: streaming.KindError, Text: "bad", Fatal: true},
		{Kind: streaming.KindResult, OK: true, Text: "done", Turns: 2, Usage: &streaming.Usage{InputTokens: 1, CostUSD: 0.25, HasCost: true}},
		{Kind: streaming.KindRaw, Text: "banner"},
		{Kind: streaming.KindStderr, Text: "Error: Invalid API key"},
		{Kind: streaming.KindUnknown, Type: "new_thing", Text: `{"type":"new_thing"}`},
		{Kind: streaming.KindNotice, Text: "note"},
	}
	for _, ev := range kinds {
		out := appendEventJSON(nil, &ev)
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Errorf("%s: not JSON: %v: %s", ev.Kind, err, out)
			continue
		}
		if m["v"] != float64(1) || m["kind"] != string(ev.Kind) {
			t.Errorf("%s: common fields wrong: %s", ev.Kind, out)
		}
	}
}

// TestJSONResultDurationWhenKnown: a result's duration_ms is left out when
// the agent reported none (0), as tool.end's is; a reported one is kept.
func TestJSONResultDurationWhenKnown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ms   int64
		want string
	}{{0, ""}, {1200, `"duration_ms":1200`}} {
		ev := streaming.Event{Kind: streaming.KindResult, OK: true, Turns: 1, DurationMS: tc.ms}
		out := string(appendEventJSON(nil, &ev))
		if got := strings.Contains(out, "duration_ms"); got != (tc.want != "") || !strings.Contains(out, tc.want) {
			t.Errorf("duration %d: %s", tc.ms, out)
		}
	}
}

// TestJSONStream: an event of one of several streams names it under
// "stream"; with one stream (Stream empty) the field is left out.
func TestJSONStream(t *testing.T) {
	t.Parallel()
	ev := streaming.Event{Kind: streaming.KindTextDelta, Agent: "claude", Line: 2, Message: "m", Text: "x", Stream: "claude·1a2b"}
	var m map[string]any
	if err := json.Unmarshal(appendEventJSON(nil, &ev), &m); err != nil {
		t.Fatal(err)
	}
	if m["stream"] != "claude·1a2b" {
		t.Errorf("stream = %v, want claude·1a2b", m["stream"])
	}
	ev.Stream = ""
	if out := appendEventJSON(nil, &ev); strings.Contains(string(out), `"stream"`) {
		t.Errorf("a single stream's event names a stream: %s", out)
	}
}
