package claude_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/claude"
	"github.com/agentfmt/agentfmt/streaming"
)

func run(t *testing.T, lines ...string) parsertest.Result {
	t.Helper()
	return parsertest.Run([]parsers.Agent{claude.Agent}, strings.Join(lines, "\n")+"\n").Check(t)
}

func fixture(t *testing.T, prefix string) parsertest.Result {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "claude", prefix+"*.jsonl"))
	if len(m) != 1 {
		t.Fatalf("fixture %s: %v", prefix, m)
	}
	data, err := os.ReadFile(m[0])
	if err != nil {
		t.Fatal(err)
	}
	return parsertest.Run([]parsers.Agent{claude.Agent}, string(data)).Check(t)
}

const (
	initLine   = `{"type":"system","subtype":"init","cwd":"/p","session_id":"s1","tools":["Bash"],"model":"claude-opus-4-5","claude_code_version":"2.1.7"}`
	resultLine = `{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":1,"result":"%s","session_id":"s1","total_cost_usd":0.5,"usage":{"input_tokens":1,"output_tokens":2}}`
)

func resultWith(text string) string { return strings.Replace(resultLine, "%s", text, 1) }

func TestDetect(t *testing.T) {
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		{initLine, parsers.Decisive},
		{`{"_t":1,"type":"system","subtype":"init","qwen_code_version":"0.20.0","session_id":"x"}`, parsers.Decisive},
		{`{"type":"system","subtype":"session_start","session_id":"x"}`, parsers.Decisive},
		{`{"type":"system","subtype":"init","cwd":"/a","session_id":"T-27","tools":[],"mcp_servers":[]}`, parsers.Decisive},
		{`{"type":"stream_event","event":{"type":"ping"}}`, parsers.Decisive},
		{`{"type":"rate_limit_event","rate_limit_info":{"status":"allowed"}}`, parsers.Decisive},
		// Cursor's init: shared shape, never decisive here.
		{`{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/p","session_id":"d4","model":"Auto","permissionMode":"default"}`, parsers.Maybe},
		{`{"type":"system","subtype":"compact_boundary","session_id":"s"}`, parsers.Maybe},
		{`{"type":"assistant","message":{"content":[]},"session_id":"s"}`, parsers.Maybe},
		{`{"type":"user","message":{"content":"hi"},"session_id":"s"}`, parsers.Maybe},
		{`{"type":"result","subtype":"success","is_error":false}`, parsers.Maybe},
		// What only Claude writes makes its frames decisive.
		{`{"type":"result","subtype":"success","is_error":false,"num_turns":1}`, parsers.Decisive},
		{`{"type":"result","subtype":"success","total_cost_usd":0.1}`, parsers.Decisive},
		{`{"type":"assistant","message":{"content":[]},"parent_tool_use_id":null,"session_id":"s"}`, parsers.Decisive},
		{`{"type":"user","message":{"content":"hi"},"parent_tool_use_id":"toolu_1","session_id":"s"}`, parsers.Decisive},
		// Cursor-only lines.
		{`{"type":"assistant","message":{"content":[]},"session_id":"s","model_call_id":"m","timestamp_ms":1}`, parsers.No},
		{`{"type":"assistant","message":{"content":[]},"session_id":"s","timestamp_ms":1}`, parsers.No},
		{`{"type":"result","subtype":"success","duration_ms":1,"is_error":false,"result":"x","session_id":"s","request_id":"r"}`, parsers.No},
		{`{"type":"tool_call","subtype":"started","call_id":"c"}`, parsers.No},
		{`{"type":"thinking","subtype":"delta","text":"x"}`, parsers.No},
		// Gemini.
		{`{"type":"init","session_id":"x","model":"gemini"}`, parsers.No},
		{`{"type":"result","timestamp":"t","status":"success","stats":{}}`, parsers.No},
		// A new Claude type keeps the envelope.
		{`{"type":"active_goal","value":null,"uuid":"u","session_id":"s"}`, parsers.Maybe},
		{`{"type":"whatever"}`, parsers.No},
	}
	for _, c := range cases {
		if got := claude.Agent.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("%s: got %v, want %v", c.line, got, c.want)
		}
	}
}

func TestMinimalAnswer(t *testing.T) {
	r := run(t, initLine,
		`{"type":"assistant","message":{"model":"claude-opus-4-5","id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"4"}],"stop_reason":"end_turn"},"session_id":"s1"}`,
		resultWith("4"))
	if r.Answer != "4" || r.Outcome != streaming.Success {
		t.Fatalf("answer %q outcome %v", r.Answer, r.Outcome)
	}
	if got := assistantText(r); got != "4" {
		t.Fatalf("shown %q", got)
	}
}

// Deltas, the assistant frame and result.result: the text is shown once.
func TestPartialTextShownOnce(t *testing.T) {
	r := fixture(t, "01-")
	if got, want := assistantText(r), "I'll count them.There are 12 files."; got != want {
		t.Fatalf("assistant text %q, want %q", got, want)
	}
	if got := r.Text(streaming.KindThinkingDelta); got != "The user wants a file count." {
		t.Fatalf("thinking %q", got)
	}
	if r.Answer != "There are 12 files." {
		t.Fatalf("answer %q", r.Answer)
	}
	for _, e := range r.Events {
		if strings.Contains(e.Text, "EqQBCgIYAh") || strings.Contains(e.Input, "EqQBCgIYAh") {
			t.Fatalf("signature shown: %+v", e)
		}
	}
	// Input fragments before the start, one start with the whole input.
	var kinds []string
	for _, e := range r.Events {
		if e.ID == "toolu_A1" {
			kinds = append(kinds, string(e.Kind))
		}
	}
	if got := strings.Join(kinds, " "); got != "tool.input.delta tool.input.delta tool.start tool.end" {
		t.Fatalf("tool events: %s", got)
	}
	if u := r.Of(streaming.KindUsage); len(u) != 2 || u[0].Usage.OutputTokens != 48 {
		t.Fatalf("usage events %+v", u)
	}
}

// With partials the frame's block index is the content_block_start's, not
// a count of frames: a frame for a block with no deltas still shows once.
func TestPartialFrameWithoutDeltas(t *testing.T) {
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"session_id":"s1","parent_tool_use_id":null}`
	}
	r := run(t, initLine,
		se(`{"type":"message_start","message":{"id":"m1","role":"assistant","content":[]}}`),
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`),
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"thinking","thinking":"","signature":"x"}]},"session_id":"s1"}`,
		se(`{"type":"content_block_stop","index":0}`),
		se(`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`),
		se(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hel"}}`),
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Hello"}]},"session_id":"s1"}`,
		se(`{"type":"content_block_stop","index":1}`),
		se(`{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`),
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":" world"}]},"session_id":"s1"}`,
		se(`{"type":"message_stop"}`),
		// A late frame for a block that streamed: dropped.
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Hello"}]},"session_id":"s1"}`,
		resultWith("Hello\n\n world"))
	if got := assistantText(r); got != "Hello world" {
		t.Fatalf("assistant text %q", got)
	}
	var blocks []int
	for _, e := range r.Of(streaming.KindTextDelta) {
		blocks = append(blocks, e.Block)
	}
	if len(blocks) != 3 || blocks[0] != 1 || blocks[1] != 1 || blocks[2] != 2 {
		t.Fatalf("blocks %v", blocks)
	}
	if n := r.Stats.Revisions; n != 0 {
		t.Fatalf("%d revisions", n)
	}
}

// A frame arriving after its message_stop, for a block that never
// streamed, is still shown once.
func TestLateFrameShown(t *testing.T) {
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"session_id":"s1"}`
	}
	r := run(t, initLine,
		se(`{"type":"message_start","message":{"id":"m1","role":"assistant","content":[]}}`),
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
		se(`{"type":"content_block_stop","index":0}`),
		se(`{"type":"message_stop"}`),
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"late"}]},"session_id":"s1"}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"late"}]},"session_id":"s1"}`,
		resultWith("late"))
	if got := assistantText(r); got != "late" {
		t.Fatalf("assistant text %q", got)
	}
}

// A late frame is sent under its message's id, and the session decides:
// a block that streamed is not shown again, one that did not is shown in
// the message reopened for it. The parser keeps the stopped message only
// to map the frame onto its blocks, not to remember what it showed.
func TestLateFramesByBlock(t *testing.T) {
	se := func(ev string) string {
		return `{"type":"stream_event","event":` + ev + `,"session_id":"s1"}`
	}
	frame := func(block string) string {
		return `{"type":"assistant","message":{"id":"m1","role":"assistant","content":[` + block + `]},"session_id":"s1"}`
	}
	r := run(t, initLine,
		se(`{"type":"message_start","message":{"id":"m1","role":"assistant","content":[]}}`),
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`),
		se(`{"type":"content_block_stop","index":0}`),
		se(`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`),
		se(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Streamed."}}`),
		se(`{"type":"content_block_stop","index":1}`),
		se(`{"type":"message_stop"}`),
		frame(`{"type":"text","text":"Streamed."}`),
		frame(`{"type":"thinking","thinking":"Late thought."}`),
		frame(`{"type":"thinking","thinking":"Late thought."}`),
		resultWith("Streamed."))
	var got []string
	for _, e := range r.Events {
		switch e.Kind {
		case streaming.KindMessageStart, streaming.KindMessageStop:
			got = append(got, string(e.Kind)+" "+e.Message)
		case streaming.KindTextDelta, streaming.KindThinkingDelta:
			got = append(got, fmt.Sprintf("%s %s/%d %q", e.Kind, e.Message, e.Block, e.Text))
		}
	}
	want := []string{"message.start m1", `text.delta m1/1 "Streamed."`, "message.stop m1",
		"message.start m1", `thinking.delta m1/0 "Late thought."`, "message.stop m1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r.Answer != "Streamed." {
		t.Errorf("answer %q", r.Answer)
	}
}

// Without partials, blocks are counted per message id: thinking then text
// are blocks 0 and 1, and a new id starts a new message.
func TestNoPartialBlocksAndMessages(t *testing.T) {
	r := fixture(t, "02-")
	var got []string
	for _, e := range r.Events {
		if e.Kind.IsText() || e.Kind == streaming.KindMessageStart || e.Kind == streaming.KindMessageStop {
			got = append(got, string(e.Kind)+":"+e.Message+":"+string(rune('0'+e.Block)))
		}
	}
	want := "message.start:msg_P1:0 text.delta:msg_P1:0 message.stop:msg_P1:0 " +
		"message.start:msg_P2:0 thinking.delta:msg_P2:0 text.delta:msg_P2:1 message.stop:msg_P2:0"
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestParallelToolsOutOfOrder(t *testing.T) {
	r := fixture(t, "02-")
	status := map[string]streaming.ToolStatus{}
	out := map[string]string{}
	for _, e := range r.Of(streaming.KindToolEnd) {
		status[e.ID], out[e.ID] = e.Status, e.Output
	}
	want := map[string]streaming.ToolStatus{"toolu_R1": streaming.ToolOK, "toolu_B1": streaming.ToolError,
		"toolu_S1": streaming.ToolOK, "toolu_W1": streaming.ToolDeclined}
	for id, st := range want {
		if status[id] != st {
			t.Errorf("%s: status %q, want %q", id, status[id], st)
		}
	}
	if out["toolu_S1"] != "‹image/png 2 KB›\nScreenshot saved" {
		t.Errorf("image output %q", out["toolu_S1"])
	}
	if starts := r.Of(streaming.KindToolStart); len(starts) != 4 || starts[2].Name != "playwright.screenshot" {
		t.Errorf("starts %+v", starts)
	}
	if r.Stats.Implicit != 0 {
		t.Errorf("%d implicit opens", r.Stats.Implicit)
	}
	// The base64 (in the result and again in tool_use_result) is never passed on.
	for _, e := range r.Events {
		if len(e.Text) > 1000 || len(e.Output) > 1000 || strings.Contains(e.Output, "AAECAwQF") {
			t.Fatalf("blob passed on: %s", parsers.Clip(e.Text+e.Output, 80))
		}
	}
	var warned bool
	for _, e := range r.Of(streaming.KindStatus) {
		warned = warned || (e.Level == streaming.LevelWarning && e.Text == "permission denied: Write")
	}
	if !warned {
		t.Error("no permission denial warning")
	}
}

func TestSubagentParents(t *testing.T) {
	r := fixture(t, "03-")
	parents := map[string]string{}
	for _, e := range r.Events {
		switch e.Kind {
		case streaming.KindMessageStart:
			parents[e.Message] = e.Parent
		case streaming.KindToolStart:
			parents[e.ID] = e.Parent
		}
	}
	want := map[string]string{"msg_M1": "", "msg_SA1": "toolu_TA", "msg_SA2": "toolu_TA", "msg_SB1": "toolu_TB",
		"msg_SB2": "toolu_TB", "toolu_SA1": "toolu_TA", "toolu_SB1": "toolu_TB", "toolu_TA": "", "msg_M2": ""}
	for k, v := range want {
		if p, ok := parents[k]; !ok || p != v {
			t.Errorf("%s: parent %q (seen %v), want %q", k, p, ok, v)
		}
	}
	// Subagent text is not the answer.
	if r.Answer != "No tests yet; the README describes a parser." {
		t.Errorf("answer %q", r.Answer)
	}
	// Each subagent message stops before its Task ends.
	stopped := map[string]bool{}
	for _, e := range r.Events {
		if e.Kind == streaming.KindMessageStop {
			stopped[e.Message] = true
		}
		if e.Kind == streaming.KindToolEnd && e.ID == "toolu_TA" && !stopped["msg_SA2"] {
			t.Error("msg_SA2 still open when its Task ended")
		}
	}
}

func TestResultOutcome(t *testing.T) {
	cases := []struct {
		name, line string
		ok         bool
		reason     string
	}{
		{"success", `{"type":"result","subtype":"success","is_error":false,"terminal_reason":"completed","stop_reason":"end_turn"}`, true, "end_turn"},
		{"no terminal reason", `{"type":"result","subtype":"success","is_error":false}`, true, ""},
		{"max turns", `{"type":"result","subtype":"error_max_turns","is_error":true,"terminal_reason":"max_turns","errors":["Reached maximum number of turns (3)"]}`,
			false, "error_max_turns: Reached maximum number of turns (3)"},
		{"budget", `{"type":"result","subtype":"error_max_budget_usd","is_error":true,"terminal_reason":"budget_exhausted","errors":["Reached maximum budget ($1)"]}`,
			false, "error_max_budget_usd (budget_exhausted): Reached maximum budget ($1)"},
		{"api error as success", `{"type":"result","subtype":"success","is_error":true,"api_error_status":429,"result":"You've hit your limit"}`,
			false, "error, HTTP 429: You've hit your limit"},
		{"terminal reason only", `{"type":"result","subtype":"success","is_error":false,"terminal_reason":"aborted_tools"}`, false, "aborted_tools"},
		{"qwen error object", `{"type":"result","subtype":"error_during_execution","is_error":true,"error":{"type":"authentication_error","message":"bad key"}}`,
			false, "error_during_execution: authentication_error: bad key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, initLine, c.line)
			res := r.Of(streaming.KindResult)
			if len(res) != 1 || res[0].OK != c.ok || res[0].Reason != c.reason {
				t.Fatalf("got %+v, want ok=%v reason=%q", res, c.ok, c.reason)
			}
		})
	}
}

func TestResultUsage(t *testing.T) {
	r := run(t, initLine, resultWith("x"))
	u := r.Of(streaming.KindResult)[0].Usage
	if u == nil || u.InputTokens != 1 || u.OutputTokens != 2 || !u.HasCost || u.CostUSD != 0.5 {
		t.Fatalf("usage %+v", u)
	}
	if u.ContextWindow != 0 {
		t.Errorf("a context window %d without modelUsage", u.ContextWindow)
	}
	// The context window is the model's that cost most (the main one; a
	// helper model comes first).
	withModels := strings.Replace(resultWith("x"), `"type":"result",`, `"type":"result","modelUsage":{`+
		`"claude-haiku-4-5":{"costUSD":0.03,"contextWindow":100000},"claude-sonnet-4-5":{"costUSD":0.17,"contextWindow":200000}},`, 1)
	r = run(t, initLine, withModels)
	if u := r.Of(streaming.KindResult)[0].Usage; u == nil || u.ContextWindow != 200000 {
		t.Fatalf("usage with modelUsage %+v", u)
	}
	// Amp: no usage, no cost.
	r = fixture(t, "12-")
	if res := r.Of(streaming.KindResult); len(res) != 1 || res[0].Usage != nil {
		t.Fatalf("amp result %+v", res)
	}
}

func TestAPIErrorFrame(t *testing.T) {
	r := fixture(t, "05-")
	if r.Outcome != streaming.Failure || !strings.HasPrefix(r.Reason, "api_error, HTTP 529") {
		t.Fatalf("outcome %v %q", r.Outcome, r.Reason)
	}
	if errs := r.Of(streaming.KindError); len(errs) != 1 || errs[0].Fatal {
		t.Fatalf("errors %+v", errs)
	}
	if w := r.Of(streaming.KindStatus); len(w) != 2 || w[0].Level != streaming.LevelWarning ||
		w[0].Text != "API retry 1/10 in 0.6s: overloaded (HTTP 529)" {
		t.Fatalf("retries %+v", w)
	}
}

// Qwen's "[API Error: …]" answer with a result that says success: the
// text is shown and the run fails. Later text clears it.
func TestQwenAPIError(t *testing.T) {
	r := fixture(t, "10-")
	if r.Outcome != streaming.Failure || r.Reason != "API Error: 401 Incorrect API key provided." {
		t.Fatalf("outcome %v %q", r.Outcome, r.Reason)
	}
	if !strings.Contains(assistantText(r), "[API Error: 401 Incorrect API key provided.]") {
		t.Fatal("error text not shown")
	}
	for _, e := range r.Events {
		if e.Agent != "qwen" && e.Line > 0 {
			t.Fatalf("agent %q on %s", e.Agent, e.Kind)
		}
	}
	qinit := `{"type":"system","subtype":"init","session_id":"q","qwen_code_version":"0.20.0"}`
	r = run(t, qinit,
		`{"type":"assistant","message":{"id":"a","content":[{"type":"text","text":"[API Error: 500 retrying]"}]}}`,
		`{"type":"assistant","message":{"id":"b","content":[{"type":"text","text":"Recovered."}]}}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"Recovered."}`)
	if r.Outcome != streaming.Success {
		t.Fatalf("outcome %v %q", r.Outcome, r.Reason)
	}
}

// Redacted captures reuse ids: a message id (or tool id) seen again after
// its message ended starts a new message, so no text is lost.
func TestReusedIDs(t *testing.T) {
	a := func(text string) string {
		return `{"type":"assistant","message":{"id":"redacted","content":[{"type":"text","text":"` + text + `"}]}}`
	}
	tool := `{"type":"assistant","message":{"id":"redacted","content":[{"type":"tool_use","id":"call-1","name":"ls","input":{}}]}}`
	res := `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"call-1","content":"ok"}]}}`
	r := run(t, initLine, a("one"), tool, res, a("two"), resultWith("two"),
		initLine, tool, res, a("three"), resultWith("three"))
	if got := assistantText(r); got != "onetwothree" {
		t.Fatalf("assistant text %q", got)
	}
	if n := len(r.Of(streaming.KindToolStart)); n != 2 {
		t.Fatalf("%d tool starts", n)
	}
	for _, e := range r.Of(streaming.KindToolEnd) {
		if e.Status != streaming.ToolOK {
			t.Fatalf("tool end %+v", e)
		}
	}
}

func TestMultipleRuns(t *testing.T) {
	r := fixture(t, "07-")
	if n := len(r.Of(streaming.KindSessionStart)); n != 3 {
		t.Fatalf("%d session starts", n)
	}
	if r.Outcome != streaming.Success || r.Answer != "bye" {
		t.Fatalf("outcome %v answer %q", r.Outcome, r.Answer)
	}
	if got := assistantText(r); got != "hi# An essay\n\nIt beginsbye" {
		t.Fatalf("text %q", got)
	}
}

func TestSystemAndOtherTypes(t *testing.T) {
	r := fixture(t, "06-")
	var texts []string
	for _, e := range r.Of(streaming.KindStatus) {
		if len(e.Text) > 200 || strings.Contains(e.Text, "\n") {
			t.Errorf("status not one short line: %q", e.Text)
		}
		texts = append(texts, e.Text)
	}
	all := strings.Join(texts, "|")
	for _, want := range []string{"hook SessionStart:startup: success (exit 0)", "context compacted (auto): 155312 → 4100 tokens",
		"commands changed (3 commands)", "compaction failed: too_few_groups", "system post_turn_summary: Built the project …"} {
		if !strings.Contains(all, want) {
			t.Errorf("no status %q in %s", want, all)
		}
	}
	if strings.Contains(all, "thinking") {
		t.Error("thinking_tokens shown")
	}

	r = fixture(t, "08-")
	if raw := r.Of(streaming.KindRaw); len(raw) != 2 || raw[0].Text != "Now using node v20.11.0 (npm v10.2.4)" {
		t.Errorf("raw %+v", raw)
	}
	if u := r.Of(streaming.KindUnknown); len(u) != 2 || u[0].Type != "active_goal" || u[1].Type != "keep_alive" {
		t.Errorf("unknown %+v", u)
	}
	if p := r.Of(streaming.KindPermissionResponse); len(p) != 1 || p[0].Choice != "allow" || p[0].Name != "Bash" {
		t.Errorf("permission response %+v", p)
	}
	levels := map[string]string{}
	for _, e := range r.Of(streaming.KindStatus) {
		levels[e.Text] = e.Level
	}
	for text, lvl := range map[string]string{
		"rate limit allowed (five_hour, resets Apr 10 04:00 UTC)":                   streaming.LevelVerbose, // (chatter)
		"rate limit allowed_warning (seven_day, 92% used, resets Apr 10 04:00 UTC)": streaming.LevelWarning,
		"rate limit rejected (overage, resets Apr 10 04:00 UTC)":                    streaming.LevelWarning,
		"Bash still running (30s)":                                                  streaming.LevelVerbose,
		"Bash still running (60s)":                                                  streaming.LevelVerbose,
		"control request: interrupt":                                                streaming.LevelVerbose,
		"control request failed: no such request":                                   streaming.LevelWarning,
		"new conversation after /clear (the last session was s-08)":                 streaming.LevelInfo, // (no init follows it here)
	} {
		if levels[text] != lvl {
			t.Errorf("status %q: level %q, want %q (have %v)", text, levels[text], lvl, levels)
		}
	}
	if _, ok := levels["Bash still running (45s)"]; ok {
		t.Error("tool_progress not throttled")
	}
}

func TestTruncatedStream(t *testing.T) {
	r := fixture(t, "09-")
	if r.Outcome != streaming.Incomplete {
		t.Fatalf("outcome %v", r.Outcome)
	}
	starts := r.Of(streaming.KindToolStart)
	if len(starts) != 2 || starts[0].Input != `{"file_path": "/tmp/a.txt", "content": "A"}` || starts[1].Input != "" {
		t.Fatalf("starts %+v", starts)
	}
	for _, e := range r.Of(streaming.KindToolEnd) {
		if e.Status != streaming.ToolIncomplete {
			t.Fatalf("end %+v", e)
		}
	}
}

func TestAmp(t *testing.T) {
	r := fixture(t, "12-")
	if r.Outcome != streaming.Success || r.Answer != "Done: a.go and b.go." {
		t.Fatalf("outcome %v answer %q", r.Outcome, r.Answer)
	}
	var ids []string
	for _, e := range r.Of(streaming.KindMessageStart) {
		if e.Role == streaming.RoleAssistant {
			ids = append(ids, e.Message)
		}
	}
	// Two assistant lines without ids before the tool result are one message.
	if len(ids) != 2 || ids[0] == ids[1] {
		t.Fatalf("assistant messages %v", ids)
	}
	if r.Of(streaming.KindSessionStart)[0].Agent != "amp" {
		t.Fatal("not amp")
	}
	if got := r.Text(streaming.KindThinkingDelta); got != "‹redacted thinking›" {
		t.Fatalf("thinking %q", got)
	}
}

func TestStreamErrorAndUnknownEvent(t *testing.T) {
	r := run(t, initLine,
		`{"type":"stream_event","event":{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}}`,
		`{"type":"stream_event","event":{"type":"brand_new"}}`,
		`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"joined mid-way"}}}`)
	if e := r.Of(streaming.KindError); len(e) != 1 || e[0].Text != "overloaded_error: Overloaded" {
		t.Fatalf("errors %+v", e)
	}
	if u := r.Of(streaming.KindUnknown); len(u) != 1 || u[0].Type != "stream_event.brand_new" {
		t.Fatalf("unknown %+v", u)
	}
	if got := assistantText(r); got != "joined mid-way" {
		t.Fatalf("text %q", got)
	}
}

func TestUserContent(t *testing.T) {
	r := run(t, initLine,
		`{"type":"user","message":{"role":"user","content":"plain prompt"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"`+strings.Repeat("A", 4000)+`"}}]}}`)
	var user strings.Builder
	for _, e := range r.Of(streaming.KindTextDelta) {
		user.WriteString(e.Text)
	}
	if got := user.String(); got != "plain promptlook‹image/jpeg 3 KB›" {
		t.Fatalf("user text %q", got)
	}
	for _, e := range r.Of(streaming.KindTextDelta) {
		if e.Role != streaming.RoleUser {
			t.Fatalf("role %q", e.Role)
		}
	}
}

// A stream whose message_start has no id: the frame with an id repeats it.
func TestStreamWithoutMessageID(t *testing.T) {
	se := func(ev string) string { return `{"type":"stream_event","event":` + ev + `}` }
	r := run(t, `{"type":"system","subtype":"session_start","session_id":"q"}`,
		se(`{"type":"message_start","message":{"role":"assistant"}}`),
		se(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
		se(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi there"}}`),
		`{"type":"assistant","message":{"id":"q-1","content":[{"type":"text","text":"Hi there"}]}}`,
		se(`{"type":"content_block_stop","index":0}`),
		se(`{"type":"message_stop"}`),
		`{"type":"result","subtype":"success","is_error":false,"result":"Hi there"}`)
	if got := assistantText(r); got != "Hi there" {
		t.Fatalf("text %q", got)
	}
	if n := len(r.Of(streaming.KindMessageStart)); n != 1 {
		t.Fatalf("%d messages", n)
	}
}

func TestServerTools(t *testing.T) {
	a := func(block string) string {
		return `{"type":"assistant","message":{"id":"m1","content":[` + block + `]},"session_id":"s1"}`
	}
	r := run(t, initLine,
		a(`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"go 1.26"}}`),
		a(`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","title":"Go 1.26 notes","url":"https://go.dev/doc/go1.26","encrypted_content":"xyz"}]}`),
		a(`{"type":"server_tool_use","id":"srvtoolu_2","name":"web_fetch","input":{"url":"https://x"}}`),
		a(`{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_2","content":{"type":"web_fetch_tool_error","error_code":"url_not_accessible"}}`),
		a(`{"type":"text","text":"Go 1.26 is out."}`),
		resultWith("Go 1.26 is out."))
	ends := r.Of(streaming.KindToolEnd)
	if len(ends) != 2 || ends[0].Output != "Go 1.26 notes https://go.dev/doc/go1.26" || ends[0].Status != streaming.ToolOK ||
		ends[1].Status != streaming.ToolError || ends[1].Output != "url_not_accessible" {
		t.Fatalf("ends %+v", ends)
	}
	if s := r.Of(streaming.KindToolStart); len(s) != 2 || s[0].Name != "web_search" {
		t.Fatalf("starts %+v", s)
	}
	if got := r.Of(streaming.KindTextDelta); len(got) != 1 || got[0].Block != 4 {
		t.Fatalf("text %+v", got)
	}
}
