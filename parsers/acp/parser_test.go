package acp_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/acp"
	"github.com/agentfmt/agentfmt/streaming"
)

func upd(u string) string {
	return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":` + u + `}}`
}

func chunk(kind, text string) string {
	return upd(fmt.Sprintf(`{"sessionUpdate":%q,"content":{"type":"text","text":%q}}`, kind, text))
}

func msgChunk(id, text string) string {
	return upd(fmt.Sprintf(`{"sessionUpdate":"agent_message_chunk","messageId":%q,"content":{"type":"text","text":%q}}`, id, text))
}

func prompt(id int, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":%q}]}}`, id, text)
}

func stop(id int, reason string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"stopReason":%q}}`, id, reason)
}

func run(t *testing.T, lines ...string) parsertest.Result {
	t.Helper()
	return parsertest.Run(agents, strings.Join(lines, "\n")+"\n").Check(t)
}

func assistantText(r parsertest.Result) string {
	var b strings.Builder
	for _, e := range r.Of(streaming.KindTextDelta) {
		if e.Role == streaming.RoleAssistant {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// messages returns the assistant text of each message, in order.
func messages(r parsertest.Result, kind streaming.Kind) []string {
	var ids []string
	text := map[string]string{}
	for _, e := range r.Of(kind) {
		if e.Role != streaming.RoleAssistant {
			continue
		}
		if _, ok := text[e.Message]; !ok {
			ids = append(ids, e.Message)
		}
		text[e.Message] += e.Text
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = text[id]
	}
	return out
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		line string
		want parsers.Confidence
	}{
		{"update", chunk("agent_message_chunk", "x"), parsers.Decisive},
		{"prompt", prompt(1, "x"), parsers.Decisive},
		{"permission", `{"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c"},"options":[]}}`, parsers.Decisive},
		{"initialize v1", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`, parsers.Decisive},
		{"mcp initialize", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}`, parsers.Maybe},
		{"mcp tools/call", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x"}}`, parsers.Maybe},
		{"stop reason", stop(2, "end_turn"), parsers.Decisive},
		{"mcp sampling stop reason", `{"jsonrpc":"2.0","id":2,"result":{"role":"assistant","stopReason":"endTurn"}}`, parsers.Maybe},
		{"initialize response", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`, parsers.Decisive},
		{"plain ack", `{"jsonrpc":"2.0","id":7,"result":null}`, parsers.Maybe},
		{"bare update", `{"sessionUpdate":"plan","entries":[]}`, parsers.Decisive},
		{"params-shaped update", `{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}`, parsers.Decisive},
		{"recorder wrapper", `{"dir":"in","msg":{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"plan","entries":[]}}}}`, parsers.Decisive},
		{"codex legacy", `{"id":"0","msg":{"type":"task_started"}}`, parsers.No},
		{"claude", `{"type":"assistant","message":{"content":[]}}`, parsers.No},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := acp.Agent.Detect(parsers.NewLine(tt.line, 1)); got != tt.want {
				t.Errorf("Detect = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRegistryDetection(t *testing.T) {
	r := parsertest.Run(all.Agents(), strings.Join([]string{prompt(1, "hi"), chunk("agent_message_chunk", "hello"), `{"jsonrpc":"2.0","id":9,"result":{}}`, stop(1, "end_turn")}, "\n"))
	for _, e := range r.Events {
		if e.Agent != "" && e.Agent != "acp" {
			t.Fatalf("event %s went to %q", e.Kind, e.Agent)
		}
	}
	if r.Outcome != streaming.Success || assistantText(r) != "hello" {
		t.Errorf("outcome %v text %q", r.Outcome, assistantText(r))
	}
}

// TestChunkRuns: a chunk appends to the last entry only if it
// is of the same kind; each run between other entries is one message.
func TestChunkRuns(t *testing.T) {
	tc := func(id string) string {
		return upd(`{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"t","status":"in_progress"}`)
	}
	r := run(t, prompt(1, "q"),
		chunk("agent_message_chunk", "A1"), chunk("agent_message_chunk", "A2"),
		chunk("agent_thought_chunk", "T"),
		chunk("agent_message_chunk", "B"),
		tc("c1"),
		chunk("agent_message_chunk", "C1"),
		upd(`{"sessionUpdate":"usage_update","used":1,"size":2}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`),
		upd(`{"sessionUpdate":"available_commands_update","availableCommands":[]}`),
		chunk("agent_message_chunk", "C2"),
		upd(`{"sessionUpdate":"plan","entries":[{"content":"x","status":"pending"}]}`),
		chunk("agent_message_chunk", "D"),
		stop(1, "end_turn"))
	want := []string{"A1A2", "B", "C1C2", "D"}
	if got := messages(r, streaming.KindTextDelta); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("messages %q, want %q", got, want)
	}
	if got := r.Text(streaming.KindThinkingDelta); got != "T" {
		t.Errorf("thought %q", got)
	}
	if r.Answer != "D" {
		t.Errorf("answer %q", r.Answer)
	}
}

// TestChunkModes: chunks are deltas, passed on as they came; the session
// alone repairs a cumulative chunk (one that repeats the whole message,
// 32 bytes or more, and goes on), and an exact repeat is genuine text.
func TestChunkModes(t *testing.T) {
	long := "The quick brown fox jumps over the lazy dog."
	tests := []struct {
		name     string
		chunks   []string
		want     string
		repaired int
	}{
		{"deltas", []string{"Hel", "lo"}, "Hello", 0},
		{"cumulative past 32 bytes", []string{long[:33], long[:40], long}, long, 2},
		{"short cumulative chunks are deltas", []string{"Hel", "Hello"}, "HelHello", 0},
		{"overlapping deltas kept", []string{"|-----|", "-----|"}, "|-----|-----|", 0},
		{"short repeats kept", []string{"=", "=", "="}, "===", 0},
		{"numbers kept", []string{"300", "0"}, "3000", 0},
		{"long exact repeat kept", []string{long, long, long}, long + long + long, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := []string{prompt(1, "q")}
			for _, c := range tt.chunks {
				lines = append(lines, chunk("agent_message_chunk", c))
			}
			r := run(t, append(lines, stop(1, "end_turn"))...)
			if got := assistantText(r); got != tt.want {
				t.Errorf("text %q, want %q", got, tt.want)
			}
			if r.Stats.SnapshotAsDelta != tt.repaired {
				t.Errorf("the session repaired %d chunks, want %d", r.Stats.SnapshotAsDelta, tt.repaired)
			}
		})
	}
}

func TestMessageIDs(t *testing.T) {
	r := run(t, prompt(1, "q"),
		msgChunk("m1", "First "), msgChunk("m1", "message."),
		msgChunk("m2", "First message."), // restatement under a new id
		msgChunk("m3", "Second."),
		stop(1, "end_turn"))
	want := []string{"First message.", "Second."}
	if got := messages(r, streaming.KindTextDelta); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("messages %q, want %q", got, want)
	}
}

func TestPromptEcho(t *testing.T) {
	r := run(t, prompt(1, "Fix the bug"),
		chunk("user_message_chunk", "Fix the"), chunk("user_message_chunk", " bug"),
		chunk("agent_message_chunk", "Done."), stop(1, "end_turn"))
	var user strings.Builder
	for _, e := range r.Of(streaming.KindTextDelta) {
		if e.Role == streaming.RoleUser {
			user.WriteString(e.Text)
		}
	}
	if user.String() != "Fix the bug" {
		t.Errorf("user text %q: the echo was shown again", user.String())
	}
}

func TestToolMerge(t *testing.T) {
	r := run(t, prompt(1, "q"),
		upd(`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Reading","kind":"read","status":"pending","_meta":{"claudeCode":{"toolName":"mcp__acp__Read"}}}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","rawInput":{"path":"a.go"}}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"in_progress","content":[{"type":"content","content":{"type":"text","text":"line 1\n"}}]}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","content":[{"type":"content","content":{"type":"text","text":"line 1\nline 2\n"}}]}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","title":"Read a.go"}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"failed","title":"Unannounced","rawOutput":"boom"}`),
		upd(`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Reading","status":"completed"}`), // replayed
		stop(1, "end_turn"))
	st := r.Of(streaming.KindToolStart)
	if len(st) != 2 || st[0].Name != "Read" || st[0].Title != "Reading" {
		t.Fatalf("starts %+v", st)
	}
	if in := r.Of(streaming.KindToolInputDelta); len(in) != 1 || in[0].Text != `{"path":"a.go"}` {
		t.Errorf("input %+v", in)
	}
	if got := r.Text(streaming.KindToolOutputDelta); got != "line 1\nline 2\n" {
		t.Errorf("output deltas %q", got)
	}
	end := r.Of(streaming.KindToolEnd)
	if len(end) != 2 {
		t.Fatalf("%d ends", len(end))
	}
	if end[0].Status != streaming.ToolOK || end[0].Output != "line 1\nline 2\n" || end[0].Title != "Read a.go" {
		t.Errorf("end c1 %+v", end[0])
	}
	if end[1].ID != "c2" || end[1].Status != streaming.ToolError || end[1].Output != "boom" || st[1].Title != "Unannounced" {
		t.Errorf("end c2 %+v", end[1])
	}
}

func TestDiff(t *testing.T) {
	r := run(t, prompt(1, "q"),
		upd(`{"sessionUpdate":"tool_call","toolCallId":"e","title":"Edit","kind":"edit","status":"completed","content":[{"type":"diff","path":"/w/f.txt","oldText":"a\nb\nc\nd\ne\nf\n","newText":"a\nb\nc\nD\ne\nf\n"}]}`),
		stop(1, "end_turn"))
	want := "--- a/w/f.txt\n+++ b/w/f.txt\n@@ -2,5 +2,5 @@\n b\n c\n-d\n+D\n e\n f"
	if got := r.Of(streaming.KindToolEnd)[0].Output; got != want {
		t.Errorf("diff\n%s\nwant\n%s", got, want)
	}
}

func TestPermission(t *testing.T) {
	opts := `[{"optionId":"ok","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]`
	r := run(t, prompt(1, "q"),
		// The permission request reuses id 1 (ids are per direction).
		`{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c9","title":"rm -rf /tmp/x","kind":"delete"},"options":`+opts+`}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"selected","optionId":"no"}}}`,
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c9","status":"failed"}`),
		`{"jsonrpc":"2.0","id":2,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c10"},"options":`+opts+`}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"outcome":{"outcome":"cancelled"}}}`,
		stop(1, "end_turn"))
	req := r.Of(streaming.KindPermissionRequest)
	resp := r.Of(streaming.KindPermissionResponse)
	if len(req) != 2 || len(resp) != 2 {
		t.Fatalf("requests %d responses %d", len(req), len(resp))
	}
	if req[0].ID != "c9" || req[0].Title != "rm -rf /tmp/x" || len(req[0].Options) != 2 || req[0].Options[1].Kind != "reject_once" {
		t.Errorf("request %+v", req[0])
	}
	if resp[0].Choice != "no" || resp[1].Choice != "cancelled" {
		t.Errorf("choices %q %q", resp[0].Choice, resp[1].Choice)
	}
	end := r.Of(streaming.KindToolEnd)
	if len(end) != 2 || end[0].Status != streaming.ToolDeclined || end[1].Status != streaming.ToolDeclined {
		t.Errorf("ends %+v", end)
	}
	if r.Outcome != streaming.Success {
		t.Errorf("the permission answer was taken for the prompt's: %v", r.Outcome)
	}
}

func TestStopReasons(t *testing.T) {
	tests := []struct {
		reason string
		want   streaming.Outcome
	}{
		{"end_turn", streaming.Success},
		{"max_tokens", streaming.Failure},
		{"max_turn_requests", streaming.Failure},
		{"refusal", streaming.Failure},
		{"cancelled", streaming.Failure},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := run(t, prompt(1, "q"), chunk("agent_message_chunk", "a"), stop(1, tt.reason))
			if r.Outcome != tt.want {
				t.Errorf("outcome %v, want %v", r.Outcome, tt.want)
			}
			if tt.want == streaming.Failure && !strings.HasPrefix(r.Reason, tt.reason) {
				t.Errorf("reason %q", r.Reason)
			}
		})
	}
	r := run(t, prompt(3, "q"), `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error"}}`)
	if r.Outcome != streaming.Failure || !strings.Contains(r.Reason, "Internal error") {
		t.Errorf("error response: %v %q", r.Outcome, r.Reason)
	}
	// A second prompt without its response: the stream ended mid-turn.
	r = run(t, prompt(1, "q"), stop(1, "end_turn"), prompt(2, "again"), chunk("agent_message_chunk", "a"))
	if r.Outcome != streaming.Incomplete {
		t.Errorf("unanswered prompt: %v", r.Outcome)
	}
	// Open tool calls end with the turn.
	r = run(t, prompt(1, "q"), upd(`{"sessionUpdate":"tool_call","toolCallId":"c","title":"x","status":"in_progress"}`), stop(1, "cancelled"))
	if end := r.Of(streaming.KindToolEnd); len(end) != 1 || end[0].Status != streaming.ToolIncomplete {
		t.Errorf("open tool at turn end: %+v", end)
	}
}

func TestSessionStartAndModes(t *testing.T) {
	r := run(t,
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"gemini-cli","version":"0.9.0"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"abc","models":{"currentModelId":"gemini-2.5-pro"},"modes":{"currentModeId":"default"}}}`,
		upd(`{"sessionUpdate":"current_mode_update","currentModeId":"default"}`),
		upd(`{"sessionUpdate":"current_mode_update","modeId":"yolo"}`),
		prompt(2, "q"), stop(2, "end_turn"))
	ss := r.Of(streaming.KindSessionStart)
	if len(ss) != 1 || ss[0].SessionID != "abc" || ss[0].CWD != "/w" || ss[0].Model != "gemini-2.5-pro" {
		t.Fatalf("session.start %+v", ss)
	}
	mc := r.Of(streaming.KindModeChange)
	if len(mc) != 1 || mc[0].From != "default" || mc[0].To != "yolo" {
		t.Errorf("mode changes %+v", mc)
	}
	if st := r.Of(streaming.KindStatus); len(st) == 0 || !strings.Contains(st[0].Text, "gemini-cli 0.9.0") {
		t.Errorf("status %+v", st)
	}
}

func TestPlanSnapshots(t *testing.T) {
	p := func(s1, s2 string) string {
		return upd(`{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"` + s1 + `"},{"content":"b","priority":"low","status":"` + s2 + `"}]}`)
	}
	r := run(t, prompt(1, "q"), p("pending", "pending"), p("pending", "pending"), p("completed", "in_progress"), stop(1, "end_turn"))
	plans := r.Of(streaming.KindPlan)
	if len(plans) != 2 {
		t.Fatalf("%d plans", len(plans))
	}
	last := plans[1].Entries
	if len(last) != 2 || last[0].Status != "completed" || last[1].Priority != "low" {
		t.Errorf("plan %+v", last)
	}
}

func TestHistoryReplay(t *testing.T) {
	r := run(t,
		`{"jsonrpc":"2.0","id":1,"method":"session/load","params":{"sessionId":"old","cwd":"/w","mcpServers":[]}}`,
		chunk("user_message_chunk", "earlier question"),
		chunk("agent_message_chunk", "earlier answer"),
		`{"jsonrpc":"2.0","id":1,"result":null}`,
		prompt(2, "new question"), chunk("agent_message_chunk", "new answer"), stop(2, "end_turn"))
	if got := messages(r, streaming.KindTextDelta); fmt.Sprint(got) != fmt.Sprint([]string{"earlier answer", "new answer"}) {
		t.Errorf("messages %q", got)
	}
	if r.Answer != "new answer" || r.Outcome != streaming.Success {
		t.Errorf("answer %q outcome %v", r.Answer, r.Outcome)
	}
	var st []string
	for _, e := range r.Of(streaming.KindStatus) {
		st = append(st, e.Text)
	}
	if len(st) != 2 || !strings.Contains(st[0], "history") || !strings.Contains(st[1], "history") {
		t.Errorf("status %q", st)
	}
	if ss := r.Of(streaming.KindSessionStart); len(ss) != 1 || ss[0].SessionID != "old" {
		t.Errorf("session.start %+v", ss)
	}
}

func TestContentBlocks(t *testing.T) {
	r := run(t, prompt(1, "q"),
		upd(`{"sessionUpdate":"agent_message_chunk","content":{"type":"image","mimeType":"image/png","data":"`+strings.Repeat("A", 4000)+`"}}`),
		upd(`{"sessionUpdate":"agent_message_chunk","content":{"type":"resource_link","uri":"file:///w/a.go","name":"a.go"}}`),
		stop(1, "end_turn"))
	if got := assistantText(r); got != "‹image/png 3 KB›‹a.go file:///w/a.go›" {
		t.Errorf("text %q", got)
	}
}

func TestTerminalOutput(t *testing.T) {
	r := run(t, prompt(1, "q"),
		upd(`{"sessionUpdate":"tool_call","toolCallId":"c","title":"make","kind":"execute","status":"in_progress","content":[{"type":"terminal","terminalId":"t1"}]}`),
		`{"jsonrpc":"2.0","id":7,"method":"terminal/output","params":{"sessionId":"s","terminalId":"t1"}}`,
		`{"jsonrpc":"2.0","id":7,"result":{"output":"built\n","truncated":false,"exitStatus":{"exitCode":2}}}`,
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c","status":"failed"}`),
		stop(1, "end_turn"))
	end := r.Of(streaming.KindToolEnd)
	if len(end) != 1 || end[0].Output != "built\n" || end[0].ExitCode == nil || *end[0].ExitCode != 2 || end[0].Status != streaming.ToolError {
		t.Errorf("end %+v", end)
	}
}

func TestUnknownKept(t *testing.T) {
	r := run(t, prompt(1, "q"), upd(`{"sessionUpdate":"mystery","x":1}`), `{"jsonrpc":"2.0","method":"_x.ai/ping","params":{}}`, stop(1, "end_turn"))
	u := r.Of(streaming.KindUnknown)
	if len(u) != 2 || u[0].Type != "mystery" || u[1].Type != "_x.ai/ping" {
		t.Errorf("unknown %+v", u)
	}
}

func TestMultiTurnRunsAndWrapper(t *testing.T) {
	wrap := func(s string) string { return `{"dir":"in","msg":` + s + `}` }
	r := run(t,
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"a"}}}`,
		prompt(1, "one"), wrap(chunk("agent_message_chunk", "first")), wrap(stop(1, "end_turn")),
		prompt(2, "two"), chunk("agent_message_chunk", "second"), stop(2, "end_turn"))
	if n := len(r.Of(streaming.KindSessionStart)); n != 2 {
		t.Errorf("%d runs, want one per turn", n)
	}
	if n := len(r.Of(streaming.KindStatus)); n != 1 {
		t.Errorf("agent info shown %d times", n)
	}
	if got := assistantText(r); got != "firstsecond" || r.Outcome != streaming.Success || r.Answer != "second" {
		t.Errorf("text %q outcome %v answer %q", got, r.Outcome, r.Answer)
	}
}

// TestSentenceTwiceAroundATool: an agent that says the same sentence
// before and after a tool call is shown saying it twice; the restatement
// claude-agent-acp sends of each under a new messageId, and the echo of
// the prompt, are shown once (the session compares: the parser keeps no
// copy of the text).
func TestSentenceTwiceAroundATool(t *testing.T) {
	in, err := os.ReadFile("../../testdata/acp/09-sentence-twice-around-a-tool.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := parsertest.Run(agents, string(in)).Check(t)
	if got := assistantText(r); got != "Let me check.Let me check.Green on the second run." {
		t.Errorf("assistant text %q", got)
	}
	var user strings.Builder
	for _, e := range r.Of(streaming.KindTextDelta) {
		if e.Role == streaming.RoleUser {
			user.WriteString(e.Text)
		}
	}
	if user.String() != "Is the build green?" {
		t.Errorf("user text %q", user.String())
	}
	if r.Answer != "Green on the second run." {
		t.Errorf("answer %q", r.Answer)
	}
}
