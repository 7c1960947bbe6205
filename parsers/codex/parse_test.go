package codex_test

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/codex"
	"github.com/agentfmt/agentfmt/streaming"
)

func run(t *testing.T, lines ...string) parsertest.Result {
	t.Helper()
	return parsertest.Run(agents, strings.Join(lines, "\n")+"\n").Check(t)
}

// assistantText is the concatenated assistant text.delta text.
func assistantText(r parsertest.Result) string {
	var b strings.Builder
	for _, e := range r.Events {
		if e.Kind == streaming.KindTextDelta && e.Role == streaming.RoleAssistant {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

const (
	thread   = `{"type":"thread.started","thread_id":"th-1"}`
	turn     = `{"type":"turn.started"}`
	complete = `{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":40,"output_tokens":7}}`
)

func msg(id, text string) string {
	return `{"type":"item.completed","item":{"id":"` + id + `","type":"agent_message","text":"` + text + `"}}`
}

func TestDetect(t *testing.T) {
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		{thread, parsers.Decisive},
		{turn, parsers.Decisive},
		{complete, parsers.Decisive},
		{`{"type":"turn.failed","error":{"message":"x"}}`, parsers.Decisive},
		{msg("item_0", "hi"), parsers.Decisive},
		{`{"type":"item.plan.delta","item_id":"item_1","delta":"1."}`, parsers.Decisive},
		{`{"type":"session.created","session_id":"s"}`, parsers.Decisive},
		{`{"id":"0","msg":{"type":"task_started"}}`, parsers.Decisive},
		{`{"model":"gpt-5","reasoning summaries":"auto","provider":"openai","sandbox":"read-only","workdir":"/code","approval":"never","reasoning effort":"medium"}`, parsers.Decisive},
		{`{"prompt":"Say hello"}`, parsers.Maybe},
		{`{"timestamp":"2025-10-29T00:59:38.317Z","type":"session_meta","payload":{"id":"x"}}`, parsers.Maybe},
		// Shared shapes: Maybe, so a Codex stream is not switched away.
		{`{"type":"error","message":"Reconnecting... 1/5"}`, parsers.Maybe},
		{`{"type":"request_user_input","id":"t","call_id":"c","questions":[]}`, parsers.Maybe},
		// Other agents' shapes.
		{`{"type":"system","subtype":"init","session_id":"s","model":"claude"}`, parsers.No},
		{`{"type":"result","subtype":"success","result":"ok"}`, parsers.No},
		{`{"type":"init","timestamp":"t","session_id":"s","model":"gemini"}`, parsers.No},
		{`{"type":"error","timestamp":"t","severity":"warning","message":"Loop detected"}`, parsers.No},
		{`{"type":"step_start","timestamp":1,"sessionID":"ses","part":{}}`, parsers.No},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk"}}}`, parsers.No},
		{`{"ts":1,"type":"say","say":"text","text":"hi"}`, parsers.No},
		{`{"id":1,"msg":"not an object"}`, parsers.No},
		{`{"id":"0","msg":{"no":"type"}}`, parsers.No},
		{`{"sandbox":"x"}`, parsers.No},
		{`{"prompt":{"text":"x"}}`, parsers.No},
	}
	for _, c := range cases {
		if got := codex.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestAgentMessageFinalAnswer(t *testing.T) {
	r := run(t, thread, turn, msg("item_0", "Preamble."), msg("item_1", "Final answer."), complete)
	if r.Outcome != streaming.Success || r.Answer != "Final answer." {
		t.Fatalf("outcome %v answer %q", r.Outcome, r.Answer)
	}
	ss := r.Of(streaming.KindSessionStart)
	if len(ss) != 1 || ss[0].SessionID != "th-1" || ss[0].Agent != "codex" {
		t.Errorf("session.start %+v", ss)
	}
}

func TestDuplicateCompletedItemShownOnce(t *testing.T) {
	r := run(t, thread, turn, msg("item_0", "Once."), msg("item_0", "Once."), complete)
	if got := assistantText(r); got != "Once." {
		t.Errorf("text %q", got)
	}
	if n := len(r.Of(streaming.KindMessageStart)); n != 1 {
		t.Errorf("%d message.start", n)
	}
}

func TestUsageIsCumulativeNotSummed(t *testing.T) {
	r := run(t, thread, turn, msg("item_0", "a"),
		`{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":40,"cache_write_input_tokens":3,"output_tokens":7,"reasoning_output_tokens":2}}`,
		thread, turn, msg("item_0", "b"),
		`{"type":"turn.completed","usage":{"input_tokens":250,"cached_input_tokens":90,"output_tokens":20}}`)
	res := r.Of(streaming.KindResult)
	if len(res) != 2 {
		t.Fatalf("%d results", len(res))
	}
	want := []streaming.Usage{
		{InputTokens: 100, CacheReadTokens: 40, CacheWriteTokens: 3, OutputTokens: 7},
		{InputTokens: 250, CacheReadTokens: 90, OutputTokens: 20},
	}
	for i, e := range res {
		if e.Usage == nil || *e.Usage != want[i] || !e.OK {
			t.Errorf("result %d: ok=%v usage %+v, want %+v", i, e.OK, e.Usage, want[i])
		}
	}
	if len(r.Of(streaming.KindUsage)) != 0 {
		t.Error("usage events: the result carries the usage")
	}
}

func TestResumeReusesItemIDs(t *testing.T) {
	// exec resume restarts at item_0 under the same thread id: the second
	// run's item_0 is a new message, not a duplicate.
	r := run(t, thread, turn, msg("item_0", "First."), complete, thread, turn, msg("item_0", "Second."), complete)
	if got := assistantText(r); got != "First.Second." {
		t.Errorf("text %q", got)
	}
	if r.Answer != "Second." || len(r.Of(streaming.KindSessionStart)) != 2 {
		t.Errorf("answer %q, %d session.start", r.Answer, len(r.Of(streaming.KindSessionStart)))
	}
}

func TestLastTurnDecides(t *testing.T) {
	failed := `{"type":"turn.failed","error":{"message":"boom"}}`
	r := run(t, thread, turn, msg("item_0", "ok"), complete, turn, failed)
	if r.Outcome != streaming.Failure || r.Reason != "boom" {
		t.Errorf("completed then failed: %v %q", r.Outcome, r.Reason)
	}
	r = run(t, thread, turn, failed, turn, msg("item_0", "ok"), complete)
	if r.Outcome != streaming.Success {
		t.Errorf("failed then completed: %v", r.Outcome)
	}
	// A second turn without a thread.started begins a run of its own.
	if n := len(r.Of(streaming.KindSessionStart)); n != 2 {
		t.Errorf("%d session.start", n)
	}
}

func TestTurnFailed(t *testing.T) {
	r := run(t, thread, turn, `{"type":"turn.failed","error":{"message":"{\"type\":\"error\",\"status\":429,\"error\":{\"type\":\"rate_limit\",\"message\":\"slow down\"}}"}}`)
	if r.Outcome != streaming.Failure || r.Reason != "rate_limit (429): slow down" {
		t.Fatalf("%v %q", r.Outcome, r.Reason)
	}
	errs := r.Of(streaming.KindError)
	if len(errs) != 1 || !errs[0].Fatal || errs[0].Text != "rate_limit (429): slow down" {
		t.Errorf("errors %+v", errs)
	}
	// Without a message.
	r = run(t, thread, turn, `{"type":"turn.failed"}`)
	if r.Outcome != streaming.Failure || r.Reason != "turn failed" {
		t.Errorf("%v %q", r.Outcome, r.Reason)
	}
}

func TestTopLevelErrorsAreNotFatal(t *testing.T) {
	r := run(t, thread, turn,
		`{"type":"error","message":"Reconnecting... 1/5 (stream disconnected before completion)"}`,
		`{"type":"error","message":"something odd"}`,
		msg("item_0", "Done."), complete)
	if r.Outcome != streaming.Success {
		t.Fatalf("outcome %v", r.Outcome)
	}
	st := r.Of(streaming.KindStatus)
	if len(st) != 1 || st[0].Level != streaming.LevelWarning || !strings.HasPrefix(st[0].Text, "Reconnecting... 1/5") {
		t.Errorf("status %+v", st)
	}
	errs := r.Of(streaming.KindError)
	if len(errs) != 1 || errs[0].Fatal || errs[0].Text != "something odd" {
		t.Errorf("errors %+v", errs)
	}
	// The same message repeated by turn.failed is not shown twice.
	r = run(t, thread, turn, `{"type":"error","message":"gone"}`, `{"type":"turn.failed","error":{"message":"gone"}}`)
	if n := len(r.Of(streaming.KindError)); n != 1 || r.Reason != "gone" {
		t.Errorf("%d errors, reason %q", n, r.Reason)
	}
}

func TestErrorItemIsWarning(t *testing.T) {
	r := run(t, thread, `{"type":"item.completed","item":{"id":"item_0","type":"error","message":"model rerouted: a -> b"}}`, turn, msg("item_1", "x"), complete)
	errs := r.Of(streaming.KindError)
	if len(errs) != 1 || errs[0].Fatal || errs[0].Level != streaming.LevelWarning || errs[0].Text != "model rerouted: a -> b" {
		t.Errorf("errors %+v", errs)
	}
	if r.Outcome != streaming.Success {
		t.Errorf("outcome %v", r.Outcome)
	}
}

func TestEOFWithoutTerminalIsIncomplete(t *testing.T) {
	r := run(t, thread, turn, msg("item_0", "Working."),
		`{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"make","aggregated_output":"","exit_code":null,"status":"in_progress"}}`)
	if r.Outcome != streaming.Incomplete {
		t.Errorf("outcome %v", r.Outcome)
	}
	if n := len(r.Of(streaming.KindResult)); n != 0 {
		t.Errorf("%d results synthesized", n)
	}
	ends := r.Of(streaming.KindToolEnd)
	if len(ends) != 1 || ends[0].Status != streaming.ToolIncomplete {
		t.Errorf("tool ends %+v", ends)
	}
}

func TestCommandExecution(t *testing.T) {
	start := `{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}`
	upd := func(out string) string {
		return `{"type":"item.updated","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"` + out + `","exit_code":null,"status":"in_progress"}}`
	}
	end := `{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"a\r\nb\r\nc\r\n","exit_code":0,"status":"completed"}}`
	r := run(t, thread, turn, start, upd(`a\r\n`), upd(`a\r\nb\r\n`), end, complete)
	st := r.Of(streaming.KindToolStart)
	if len(st) != 1 || st[0].Title != "bash -lc ls" || st[0].Name != "shell" || st[0].ID != "item_1" {
		t.Errorf("start %+v", st)
	}
	if got := r.Text(streaming.KindToolOutputDelta); got != "a\nb\nc\n" {
		t.Errorf("output deltas %q (cumulative snapshots must not repeat)", got)
	}
	en := r.Of(streaming.KindToolEnd)
	if len(en) != 1 || en[0].Status != streaming.ToolOK || en[0].ExitCode == nil || *en[0].ExitCode != 0 || en[0].Output != "a\nb\nc\n" {
		t.Errorf("end %+v", en)
	}

	status := func(extra string) streaming.ToolStatus {
		r := run(t, thread, turn, `{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"x","aggregated_output":""`+extra+`}}`, complete)
		en := r.Of(streaming.KindToolEnd)
		if len(en) != 1 {
			t.Fatalf("%s: %d ends", extra, len(en))
		}
		return en[0].Status
	}
	for extra, want := range map[string]streaming.ToolStatus{
		`,"exit_code":2,"status":"failed"`:       streaming.ToolError,
		`,"exit_code":3,"status":"completed"`:    streaming.ToolError,
		`,"exit_code":null,"status":"declined"`:  streaming.ToolDeclined,
		`,"exit_code":null,"status":"completed"`: streaming.ToolIncomplete, // force-completed at turn end
		`,"status":"in_progress"`:                streaming.ToolIncomplete,
		`,"exit_code":0`:                         streaming.ToolOK,
	} {
		if got := status(extra); got != want {
			t.Errorf("%s: status %v, want %v", extra, got, want)
		}
	}
}

func TestOpenToolsEndIncompleteAtTurnEnd(t *testing.T) {
	r := run(t, thread, turn,
		`{"type":"item.started","item":{"id":"item_1","type":"mcp_tool_call","server":"s","tool":"t","arguments":{},"status":"in_progress"}}`,
		msg("item_2", "done"), complete)
	en := r.Of(streaming.KindToolEnd)
	if len(en) != 1 || en[0].Status != streaming.ToolIncomplete || en[0].Line != 5 {
		t.Errorf("ends %+v", en)
	}
	if r.Outcome != streaming.Success {
		t.Errorf("outcome %v", r.Outcome)
	}
}

func TestWebSearchDuplicateID(t *testing.T) {
	r := run(t, thread, turn,
		`{"type":"item.started","item":{"id":"item_3","type":"web_search","id":"ws_abc","query":"","action":{"type":"other"}}}`,
		`{"type":"item.completed","item":{"id":"item_3","type":"web_search","id":"ws_abc","query":"go fuzz","action":{"type":"search","query":"go fuzz"}}}`,
		complete)
	st, en := r.Of(streaming.KindToolStart), r.Of(streaming.KindToolEnd)
	if len(st) != 1 || st[0].ID != "item_3" || len(en) != 1 || en[0].ID != "item_3" {
		t.Fatalf("start %+v end %+v", st, en)
	}
	if en[0].Title != "go fuzz" || en[0].Status != streaming.ToolOK {
		t.Errorf("end %+v", en[0])
	}
}

func TestMCPToolCall(t *testing.T) {
	r := run(t, thread, turn,
		`{"type":"item.completed","item":{"id":"item_1","type":"mcp_tool_call","server":"vincent","tool":"task_get","arguments":{"id":9},"result":{"content":[{"type":"text","text":"not found"}],"structured_content":null},"error":null,"status":"failed"}}`,
		`{"type":"item.completed","item":{"id":"item_2","type":"mcp_tool_call","server":"vincent","tool":"health","arguments":{},"result":null,"error":{"message":"timeout"},"status":"failed"}}`,
		`{"type":"item.completed","item":{"id":"item_3","type":"mcp_tool_call","server":"vincent","tool":"stats","arguments":{},"result":{"content":[],"structured_content":{"n":1}},"error":null,"status":"completed"}}`,
		`{"type":"item.completed","item":{"id":"item_4","type":"mcp_tool_call","server":"old","tool":"ping","status":"completed"}}`,
		complete)
	en := r.Of(streaming.KindToolEnd)
	want := []struct {
		name, out string
		st        streaming.ToolStatus
	}{
		{"vincent.task_get", "not found", streaming.ToolError},
		{"vincent.health", "timeout", streaming.ToolError},
		{"vincent.stats", `{"n":1}`, streaming.ToolOK},
		{"old.ping", "", streaming.ToolOK},
	}
	if len(en) != len(want) {
		t.Fatalf("%d ends", len(en))
	}
	for i, w := range want {
		if en[i].Name != w.name || en[i].Output != w.out || en[i].Status != w.st {
			t.Errorf("end %d: %q %q %v, want %+v", i, en[i].Name, en[i].Output, en[i].Status, w)
		}
	}
	if in := r.Of(streaming.KindToolStart)[0].Input; in != `{"id":9}` {
		t.Errorf("input %q", in)
	}
}

func TestFileChange(t *testing.T) {
	r := run(t, thread, turn,
		`{"type":"item.completed","item":{"id":"item_1","type":"file_change","changes":[{"path":"/a/x.go","kind":"update","diff":"@@ -1 +1 @@\n-a\n+b\n"},{"path":"/a/y.go","kind":"add"}],"status":"completed"}}`,
		complete)
	en := r.Of(streaming.KindToolEnd)
	if len(en) != 1 || en[0].Name != "apply_patch" || en[0].Output != "update /a/x.go\n@@ -1 +1 @@\n-a\n+b\nadd /a/y.go" || en[0].Title != "update /a/x.go (+1 more)" {
		t.Errorf("end %+v", en)
	}
}

func TestTodoListPlan(t *testing.T) {
	item := func(phase, a, b string) string {
		return `{"type":"item.` + phase + `","item":{"id":"item_0","type":"todo_list","items":[{"text":"A","completed":` + a + `},{"text":"B","completed":` + b + `}]}}`
	}
	r := run(t, thread, turn, item("started", "false", "false"), item("updated", "true", "false"), item("updated", "true", "false"), item("completed", "true", "false"), complete)
	plans := r.Of(streaming.KindPlan)
	if len(plans) != 2 {
		t.Fatalf("%d plans (unchanged lists are not resent)", len(plans))
	}
	if e := plans[1].Entries; len(e) != 2 || e[0].Status != "completed" || e[1].Status != "pending" || e[1].Text != "B" {
		t.Errorf("entries %+v", e)
	}
}

func TestPlanDeltasThenItem(t *testing.T) {
	r := run(t, thread, turn,
		`{"type":"item.plan.delta","item_id":"item_1","delta":"1. One\n"}`,
		`{"type":"item.plan.delta","item_id":"item_1","delta":"2. Two"}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"plan","text":"1. One\n2. Two"}}`,
		complete)
	if got := assistantText(r); got != "1. One\n2. Two" {
		t.Errorf("text %q", got)
	}
	if r.Answer != "1. One\n2. Two" {
		t.Errorf("answer %q", r.Answer)
	}
}

func TestReasoningIsThinking(t *testing.T) {
	r := run(t, thread, turn,
		`{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Plan**"}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"reasoning","text":""}}`,
		msg("item_2", "4"), complete)
	if got := r.Text(streaming.KindThinkingDelta); got != "**Plan**" {
		t.Errorf("thinking %q", got)
	}
	if n := len(r.Of(streaming.KindMessageStart)); n != 2 {
		t.Errorf("%d messages (empty reasoning shows nothing)", n)
	}
	if r.Answer != "4" {
		t.Errorf("answer %q", r.Answer)
	}
}

func TestExperimentalFormat(t *testing.T) {
	r := run(t, `{"type":"session.created","session_id":"s-42"}`, turn,
		`{"type":"item.completed","item":{"id":"itm_0","item_type":"assistant_message","text":"Hi from 0.42"}}`, complete)
	if got := assistantText(r); got != "Hi from 0.42" || r.Outcome != streaming.Success {
		t.Errorf("text %q outcome %v", got, r.Outcome)
	}
	if ss := r.Of(streaming.KindSessionStart); len(ss) != 1 || ss[0].SessionID != "s-42" {
		t.Errorf("session %+v", ss)
	}
}

func TestRequestUserInput(t *testing.T) {
	r := run(t, thread, turn, `{"type":"request_user_input","id":"turn_1","call_id":"call_q","questions":[{"id":"q1","header":"H","question":"Which?","options":[{"label":"a","description":"first"},{"label":"b"}]}]}`)
	pr := r.Of(streaming.KindPermissionRequest)
	if len(pr) != 1 || pr[0].ID != "call_q" || pr[0].Title != "H: Which?" || len(pr[0].Options) != 2 || pr[0].Options[0].Name != "a — first" || pr[0].Options[1].ID != "b" {
		t.Errorf("requests %+v", pr)
	}
}

func TestCollabToolCall(t *testing.T) {
	r := run(t, thread, turn,
		`{"type":"item.started","item":{"id":"item_1","type":"collab_tool_call","tool":"wait","sender_thread_id":"t0","receiver_thread_ids":["t1","t2"],"agents_states":{},"status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"collab_tool_call","tool":"wait","sender_thread_id":"t0","receiver_thread_ids":["t1","t2"],"agents_states":{"t1":{"status":"completed","message":"ok"},"t2":{"status":"errored"}},"status":"failed"}}`,
		complete)
	en := r.Of(streaming.KindToolEnd)
	if len(en) != 1 || en[0].Name != "wait" || en[0].Title != "t1, t2" || en[0].Status != streaming.ToolError || en[0].Output != "t1: completed — ok\nt2: errored" {
		t.Errorf("end %+v", en)
	}
}

func TestUnknownTypesKept(t *testing.T) {
	r := run(t, thread, turn, `{"type":"item.completed","item":{"id":"item_1","type":"hologram","x":1}}`, `{"type":"thread.archived"}`, `{"type":"item.completed","item":7}`, msg("item_2", "ok"), complete)
	un := r.Of(streaming.KindUnknown)
	if len(un) != 3 || un[0].Type != "item.completed/hologram" || un[1].Type != "thread.archived" {
		t.Errorf("unknown %+v", un)
	}
	if r.Outcome != streaming.Success {
		t.Errorf("outcome %v", r.Outcome)
	}
}

const (
	config = `{"model":"gpt-5","sandbox":"read-only","workdir":"/code","approval":"never","reasoning effort":"medium"}`
	prompt = `{"prompt":"Say hello"}`
	task   = `{"id":"0","msg":{"type":"task_started"}}`
)

func legacy(typ, rest string) string {
	if rest != "" {
		rest = "," + rest
	}
	return `{"id":"0","msg":{"type":"` + typ + `"` + rest + `}}`
}

func TestLegacyConfigAndPrompt(t *testing.T) {
	r := run(t, config, prompt, task, legacy("agent_message", `"message":"Hello"`), legacy("task_complete", `"last_agent_message":"Hello"`))
	ss := r.Of(streaming.KindSessionStart)
	if len(ss) != 1 || ss[0].Model != "gpt-5" || ss[0].CWD != "/code" {
		t.Errorf("session %+v", ss)
	}
	var user string
	for _, e := range r.Of(streaming.KindTextDelta) {
		if e.Role == streaming.RoleUser {
			user += e.Text
		}
	}
	if got := assistantText(r); got != "Hello" || user != "Say hello" {
		t.Errorf("text %q, user %q", got, user)
	}
	if un := r.Of(streaming.KindUnknown); len(un) != 0 {
		t.Errorf("unknown %+v", un)
	}
	if r.Outcome != streaming.Success || r.Answer != "Hello" {
		t.Errorf("outcome %v answer %q", r.Outcome, r.Answer)
	}
}

func TestLegacyDeltasThenFinal(t *testing.T) {
	r := run(t, config, task,
		legacy("agent_message_delta", `"delta":"Hel"`), legacy("agent_message_delta", `"delta":"lo"`),
		legacy("agent_message", `"message":"Hello"`),
		legacy("agent_message_delta", `"delta":"Bye"`), legacy("agent_message", `"message":"Bye"`),
		legacy("agent_message", `"message":"Solo"`),
		legacy("task_complete", `"last_agent_message":"Solo"`))
	if got := assistantText(r); got != "HelloByeSolo" {
		t.Errorf("text %q", got)
	}
	var finalsByMsg = map[string]int{}
	for _, e := range r.Of(streaming.KindTextDelta) {
		finalsByMsg[e.Message]++
	}
	if len(finalsByMsg) != 3 {
		t.Errorf("messages %v", finalsByMsg)
	}
	// A final that rewrites the streamed text is a revision, not a repeat.
	r = run(t, config, task, legacy("agent_message_delta", `"delta":"Helo"`), legacy("agent_message", `"message":"Hello"`), legacy("task_complete", ""))
	if rev := r.Of(streaming.KindTextRevision); len(rev) != 1 || rev[0].Text != "Hello" || r.Answer != "Hello" {
		t.Errorf("revisions %+v answer %q", rev, r.Answer)
	}
}

func TestLegacyReasoningSections(t *testing.T) {
	r := run(t, config, task,
		legacy("agent_reasoning_delta", `"delta":"One"`), legacy("agent_reasoning_section_break", ""),
		legacy("agent_reasoning_delta", `"delta":"Two"`),
		legacy("agent_reasoning", `"text":"One"`), legacy("agent_reasoning", `"text":"Two"`),
		legacy("agent_reasoning", `"text":"Three"`),
		legacy("task_complete", ""))
	if got := r.Text(streaming.KindThinkingDelta); got != "OneTwoThree" {
		t.Errorf("thinking %q", got)
	}
}

func TestLegacyExecOutput(t *testing.T) {
	r := run(t, config, task,
		legacy("exec_command_begin", `"call_id":"c1","command":["bash","-lc","echo 'hi there'"],"cwd":"/x"`),
		// "é" (c3 a9) cut between two chunks; \r\n cut too.
		legacy("exec_command_output_delta", `"call_id":"c1","stream":"stdout","chunk":"Y2Fmw6k="`),
		legacy("exec_command_output_delta", `"call_id":"c1","stream":"stdout","chunk":[99,97,102,195]`),
		legacy("exec_command_output_delta", `"call_id":"c1","stream":"stdout","chunk":[169,13]`),
		legacy("exec_command_output_delta", `"call_id":"c1","stream":"stdout","chunk":[10]`),
		legacy("exec_command_end", `"call_id":"c1","stdout":"","stderr":"","aggregated_output":"","exit_code":1,"duration":{"secs":1,"nanos":250000000}`),
		legacy("task_complete", ""))
	st := r.Of(streaming.KindToolStart)
	if len(st) != 1 || st[0].Title != `bash -lc 'echo '\''hi there'\'''` {
		t.Errorf("start %+v", st)
	}
	if got := r.Text(streaming.KindToolOutputDelta); got != "cafécafé\n" {
		t.Errorf("output %q", got)
	}
	en := r.Of(streaming.KindToolEnd)
	if len(en) != 1 || en[0].Status != streaming.ToolError || en[0].DurationMS != 1250 || en[0].Output != "cafécafé\n" || *en[0].ExitCode != 1 {
		t.Errorf("end %+v", en)
	}
}

func TestLegacyErrorFailsOnce(t *testing.T) {
	r := run(t, config, task, legacy("stream_error", `"message":"retrying 1/5"`),
		legacy("error", `"message":"fatal thing"`), legacy("task_complete", `"last_agent_message":null`))
	if r.Outcome != streaming.Failure || r.Reason != "fatal thing" {
		t.Errorf("outcome %v %q", r.Outcome, r.Reason)
	}
	if n := len(r.Of(streaming.KindResult)); n != 1 {
		t.Errorf("%d results", n)
	}
	if e := r.Of(streaming.KindError); len(e) != 1 || !e[0].Fatal {
		t.Errorf("errors %+v", e)
	}
	if s := r.Of(streaming.KindStatus); len(s) != 1 || s[0].Level != streaming.LevelWarning {
		t.Errorf("status %+v", s)
	}
}

func TestLegacyTokenCount(t *testing.T) {
	r := run(t, config, task,
		legacy("token_count", `"input_tokens":10,"cached_input_tokens":2,"output_tokens":3`),
		legacy("token_count", `"info":{"total_token_usage":{"input_tokens":20,"cached_input_tokens":4,"output_tokens":6}},"rate_limits":null`),
		legacy("token_count", `"info":null,"rate_limits":{}`),
		legacy("task_complete", ""))
	us := r.Of(streaming.KindUsage)
	if len(us) != 2 || us[0].Usage.InputTokens != 10 || us[1].Usage.InputTokens != 20 {
		t.Errorf("usage %+v", us)
	}
	res := r.Of(streaming.KindResult)
	if len(res) != 1 || res[0].Usage == nil || res[0].Usage.OutputTokens != 6 {
		t.Errorf("result %+v", res)
	}
}

func TestLegacyPatchAndMCP(t *testing.T) {
	r := run(t, config, task,
		legacy("patch_apply_begin", `"call_id":"p1","auto_approved":true,"changes":{"/a.txt":{"add":{"content":"x"}},"/b.txt":"delete","/c.txt":{"update":{"unified_diff":"","move_path":"/d.txt"}}}`),
		legacy("patch_apply_end", `"call_id":"p1","stdout":"","stderr":"patch rejected","success":false`),
		legacy("mcp_tool_call_begin", `"call_id":"m1","invocation":{"server":"s","tool":"t","arguments":{"k":1}}`),
		legacy("mcp_tool_call_end", `"call_id":"m1","invocation":{"server":"s","tool":"t"},"result":{"Err":"no such tool"}`),
		legacy("web_search_begin", `"call_id":"w1"`),
		legacy("web_search_end", `"call_id":"w1","query":"weather"`),
		legacy("task_complete", ""))
	en := r.Of(streaming.KindToolEnd)
	if len(en) != 3 {
		t.Fatalf("%d ends", len(en))
	}
	if en[0].Status != streaming.ToolError || en[0].Output != "add /a.txt\ndelete /b.txt\nupdate /c.txt → /d.txt\npatch rejected" {
		t.Errorf("patch end %+v", en[0])
	}
	if en[1].Name != "s.t" || en[1].Status != streaming.ToolError || en[1].Output != "no such tool" {
		t.Errorf("mcp end %+v", en[1])
	}
	if en[2].Name != "web_search" || en[2].Title != "weather" {
		t.Errorf("web end %+v", en[2])
	}
}

func TestLegacyTwoProcesses(t *testing.T) {
	r := run(t, config, prompt, task, legacy("agent_message", `"message":"one"`), legacy("task_complete", ""),
		config, prompt, task, legacy("agent_message", `"message":"two"`))
	if r.Outcome != streaming.Incomplete {
		t.Errorf("outcome %v", r.Outcome)
	}
	if n := len(r.Of(streaming.KindSessionStart)); n != 2 {
		t.Errorf("%d session.start", n)
	}
}

func TestRepeatedThreadStartedIsOneRun(t *testing.T) {
	r := run(t, thread, thread, turn, msg("item_0", "x"), complete)
	if n := len(r.Of(streaming.KindSessionStart)); n != 1 {
		t.Errorf("%d session.start", n)
	}
	if n := len(r.Of(streaming.KindNotice)); n != 0 {
		t.Errorf("notices %+v", r.Of(streaming.KindNotice))
	}
}

func TestHandWrittenOutputField(t *testing.T) {
	r := run(t, thread, turn, `{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","output":"a\n","exit_code":0,"status":"completed","latency_ms":5}}`, complete)
	if en := r.Of(streaming.KindToolEnd); len(en) != 1 || en[0].Output != "a\n" {
		t.Errorf("ends %+v", en)
	}
}

func TestLegacyStreamedReasoningStoppedByOtherOutput(t *testing.T) {
	r := run(t, config, task,
		legacy("agent_reasoning_delta", `"delta":"Think"`),
		legacy("exec_command_begin", `"call_id":"c1","command":["ls"]`),
		legacy("agent_reasoning", `"text":"Think"`), // late final: already shown
		legacy("exec_command_end", `"call_id":"c1","exit_code":0`),
		legacy("agent_reasoning_delta", `"delta":"More"`),
		legacy("agent_reasoning", `"text":"More"`),
		legacy("task_complete", ""))
	if got := r.Text(streaming.KindThinkingDelta); got != "ThinkMore" {
		t.Errorf("thinking %q", got)
	}
	ks := r.Kinds()
	var order []streaming.Kind
	for _, k := range ks {
		if k == streaming.KindMessageStop || k == streaming.KindToolStart {
			order = append(order, k)
		}
	}
	if len(order) < 2 || order[0] != streaming.KindMessageStop || order[1] != streaming.KindToolStart {
		t.Errorf("the reasoning message must stop before the tool starts: %v", ks)
	}
	if n := len(r.Of(streaming.KindMessageStart)); n != 2 {
		t.Errorf("%d messages", n)
	}
}

// An item or legacy call completed twice is shown once. The parser keeps
// no record of what completed: it sends the repeat under the same id, and
// the session, which keeps the run's finished ids, drops it. So each case
// fails if the parser opened the repeat as a new message or call.
func TestRepeatedCompletionShownOnce(t *testing.T) {
	reasoning := `{"type":"item.completed","item":{"id":"item_1","type":"reasoning","text":"Hmm."}}`
	command := `{"type":"item.completed","item":{"id":"item_2","type":"command_execution","command":"ls","aggregated_output":"a\n","exit_code":0,"status":"completed"}}`
	started := `{"type":"item.started","item":{"id":"item_3","type":"agent_message","text":""}}`
	begin := legacy("exec_command_begin", `"call_id":"c1","command":["ls"]`)
	end := legacy("exec_command_end", `"call_id":"c1","exit_code":0,"aggregated_output":"a\n"`)
	cases := []struct {
		name  string
		lines []string
		kind  streaming.Kind
		text  string
		n     int // message.start or tool.start events
	}{
		{"reasoning", []string{thread, turn, reasoning, reasoning, complete}, streaming.KindThinkingDelta, "Hmm.", 1},
		{"started message", []string{thread, turn, started, msg("item_3", "Hi."), msg("item_3", "Hi."), complete}, streaming.KindTextDelta, "Hi.", 1},
		{"command", []string{thread, turn, command, command, complete}, streaming.KindToolOutputDelta, "", 1},
		{"legacy command", []string{config, task, begin, end, end, legacy("exec_command_output_delta", `"call_id":"c1","stream":"stdout","chunk":"YQo="`), legacy("task_complete", "")}, streaming.KindToolOutputDelta, "", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.lines...)
			if got := r.Text(c.kind); got != c.text {
				t.Errorf("%s %q, want %q", c.kind, got, c.text)
			}
			starts, ends := len(r.Of(streaming.KindMessageStart)), len(r.Of(streaming.KindMessageStop))
			if c.kind == streaming.KindToolOutputDelta {
				starts, ends = len(r.Of(streaming.KindToolStart)), len(r.Of(streaming.KindToolEnd))
			}
			if starts != c.n || ends != c.n {
				t.Errorf("%d starts and %d ends, want %d", starts, ends, c.n)
			}
		})
	}
}
