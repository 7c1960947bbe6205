package cursor_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/cursor"
	"github.com/agentfmt/agentfmt/streaming"
)

const (
	initLine = `{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/w","session_id":"s1","model":"Auto","permissionMode":"default"}`
	userLine = `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"do it"}]},"session_id":"s1"}`
	okResult = `{"type":"result","subtype":"success","duration_ms":10,"duration_api_ms":10,"is_error":false,"result":"x","session_id":"s1","request_id":"r"}`
)

// frag is a --stream-partial-output fragment (timestamp_ms, no model_call_id).
func frag(text string) string {
	return fmt.Sprintf(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":%q}]},"session_id":"s1","timestamp_ms":1770000000000}`, text)
}

// replay is a complete mid-turn line (model_call_id): a segment without
// partial output, or the recap of its fragments.
func replay(text string) string {
	return fmt.Sprintf(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":%q}]},"session_id":"s1","model_call_id":"mc-0","timestamp_ms":1770000000001}`, text)
}

// final is the final segment line (neither timestamp_ms nor model_call_id).
func final(text string) string {
	return fmt.Sprintf(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":%q}]},"session_id":"s1"}`, text)
}

func shell(id, sub, result string) string {
	r := ""
	if result != "" {
		r = `,"result":` + result
	}
	return fmt.Sprintf(`{"type":"tool_call","subtype":%q,"call_id":%q,"tool_call":{"shellToolCall":{"args":{"command":"make"}%s}},"session_id":"s1","timestamp_ms":1770000000002}`, sub, id, r)
}

func run(t *testing.T, lines ...string) parsertest.Result {
	t.Helper()
	return parsertest.Run(agents, strings.Join(lines, "\n")+"\n").Check(t)
}

// assistantText is the concatenation of the assistant's text.delta events.
func assistantText(r parsertest.Result) string {
	var b strings.Builder
	for _, e := range r.Of(streaming.KindTextDelta) {
		if e.Role == streaming.RoleAssistant {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		line string
		want parsers.Confidence
	}{
		{"cursor init", initLine, parsers.Decisive},
		{"claude init", `{"type":"system","subtype":"init","cwd":"/w","session_id":"s","tools":["Bash"],"model":"claude","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.0","uuid":"u"}`, parsers.Maybe},
		{"minimal claude init", `{"type":"system","subtype":"init","apiKeySource":"none","claude_code_version":"1.0","model":"m","permissionMode":"default","session_id":"s"}`, parsers.Maybe},
		{"qwen init", `{"type":"system","subtype":"init","cwd":"/w","model":"q","qwen_code_version":"0.1","session_id":"s","uuid":"u"}`, parsers.Maybe},
		{"amp init", `{"type":"system","subtype":"init","cwd":"/w","session_id":"T-1","tools":["oracle"],"mcp_servers":[]}`, parsers.Maybe},
		{"thinking", `{"type":"thinking","subtype":"delta","text":"x","session_id":"s"}`, parsers.Decisive},
		{"tool_call", shell("c", "started", ""), parsers.Decisive},
		{"fragment", frag("x"), parsers.Decisive},
		{"replay", replay("x"), parsers.Decisive},
		{"final", final("x"), parsers.Maybe},
		{"user", userLine, parsers.Maybe},
		{"result", okResult, parsers.Maybe},
		{"gemini init", `{"type":"init","timestamp":"t","session_id":"s","model":"g"}`, parsers.No},
		{"acp", `{"jsonrpc":"2.0","method":"session/update","params":{}}`, parsers.No},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cursor.Agent.Detect(parsers.NewLine(tt.line, 1)); got != tt.want {
				t.Errorf("Detect = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestRegistryDetection checks that with every agent registered (Claude
// first, sharing Cursor's line shapes) a Cursor stream goes to Cursor.
func TestRegistryDetection(t *testing.T) {
	r := parsertest.Run(all.Agents(), strings.Join([]string{initLine, userLine, final("hi"), okResult}, "\n"))
	for _, e := range r.Events {
		if e.Agent != "" && e.Agent != "cursor" {
			t.Fatalf("event %s went to %q", e.Kind, e.Agent)
		}
	}
	if got := assistantText(r); got != "hi" {
		t.Errorf("text = %q", got)
	}
	// Joined mid-way, without the init: the first tool_call decides.
	r = parsertest.Run(all.Agents(), strings.Join([]string{shell("c1", "started", ""), shell("c1", "completed", `{"success":{"exitCode":0,"stdout":"ok"}}`), final("done"), okResult}, "\n"))
	if len(r.Of(streaming.KindToolEnd)) != 1 || r.Of(streaming.KindToolEnd)[0].Agent != "cursor" {
		t.Errorf("tool call not parsed as cursor: %v", r.Kinds())
	}
}

// TestSegmentsShownOnce: the text of every --stream-partial-output shape
// appears once, whether the recap is a replay with model_call_id, the
// final line without timestamp_ms, both, or arrives after a tool call.
func TestSegmentsShownOnce(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{"plain segments", []string{replay("Checking."), shell("c1", "started", ""), shell("c1", "completed", `{"success":{"exitCode":0}}`), final("Done.")}, "Checking.Done."},
		{"fragments then replay", []string{frag("Let me"), frag(" look."), replay("Let me look."), shell("c1", "started", "")}, "Let me look."},
		{"fragments then final", []string{frag("All"), frag(" good."), final("All good.")}, "All good."},
		{"fragments, replay and final", []string{frag("Done"), frag("!"), replay("Done!"), final("Done!")}, "Done!"},
		{"recap differs in trimming", []string{frag("\n"), frag("Hi."), frag("\n\n"), replay("Hi.")}, "\nHi.\n\n"},
		{"recap after the tool call", []string{frag("Run"), frag("ning."), shell("c1", "started", ""), replay("Running."), shell("c1", "completed", `{"success":{"exitCode":0}}`), final("Ok.")}, "Running.Ok."},
		{"recap longer than the fragments", []string{frag("Hel"), replay("Hello.")}, "Hello."},
		{"whitespace fragments kept", []string{frag("a"), frag(" "), frag("b"), final("a b")}, "a b"},
		{"equal fragments kept", []string{frag("="), frag("="), frag("="), final("===")}, "==="},
		{"two segments of fragments", []string{frag("One."), replay("One."), frag("Two."), final("Two.")}, "One.Two."},
		{"legit repeat across a tool call", []string{replay("Trying."), shell("c1", "started", ""), shell("c1", "completed", `{"success":{"exitCode":1}}`), replay("Trying."), final("Done.")}, "Trying.Trying.Done."},
		{"said twice around a tool call, fragments and recaps", []string{frag("Let me "), frag("check."), replay("Let me check."),
			shell("c1", "started", ""), shell("c1", "completed", `{"success":{"exitCode":1}}`), frag("Let me check."), final("Let me check.")}, "Let me check.Let me check."},
		{"said twice around a tool call, the recap after it", []string{frag("Let me check."), shell("c1", "started", ""), replay("Let me check."),
			shell("c1", "completed", `{"success":{"exitCode":1}}`), frag("Let me check."), final("Let me check.")}, "Let me check.Let me check."},
		{"a segment of its own after a segment of fragments and a tool call", []string{frag("Looking."), shell("c1", "started", ""),
			replay("Found it."), shell("c1", "completed", `{"success":{"exitCode":0}}`)}, "Looking.Found it."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := append([]string{initLine, userLine}, tt.lines...)
			r := run(t, append(lines, okResult)...)
			if got := assistantText(r); got != tt.want {
				t.Errorf("assistant text = %q, want %q", got, tt.want)
			}
			if n := len(r.Of(streaming.KindTextRevision)); n != 0 {
				t.Errorf("%d revisions", n)
			}
		})
	}
}

func TestSegmentsAreMessages(t *testing.T) {
	r := run(t, initLine, userLine, frag("A"), replay("A"), shell("c1", "started", ""), shell("c1", "completed", `{"success":{"exitCode":0}}`), frag("B"), final("B"), okResult)
	msgs := map[string]bool{}
	for _, e := range r.Of(streaming.KindTextDelta) {
		if e.Role == streaming.RoleAssistant {
			msgs[e.Message] = true
		}
	}
	if len(msgs) != 2 {
		t.Errorf("segments in %d messages, want 2", len(msgs))
	}
	if r.Answer != "B" {
		t.Errorf("answer = %q, want the last segment", r.Answer)
	}
	// result.result runs every segment together: never shown.
	if strings.Contains(assistantText(r), "x") {
		t.Error("result.result shown")
	}
}

func TestResultTextShownWhenNoAssistantLine(t *testing.T) {
	res := `{"type":"result","subtype":"success","is_error":false,"result":"only here","session_id":"s1"}`
	r := run(t, initLine, userLine, res)
	if got := assistantText(r); got != "only here" {
		t.Errorf("text = %q", got)
	}
	if r.Answer != "only here" || r.Outcome != streaming.Success {
		t.Errorf("answer %q outcome %v", r.Answer, r.Outcome)
	}
}

func TestComposerParts(t *testing.T) {
	line := `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Working on it."},{"type":"text","text":"The answer is 4."}]},"session_id":"s1"}`
	r := run(t, initLine, userLine, line, okResult)
	if got := assistantText(r); got != "Working on it.The answer is 4." {
		t.Errorf("text = %q", got)
	}
	if r.Answer != "The answer is 4." {
		t.Errorf("answer = %q, want the last part", r.Answer)
	}
}

func TestThinking(t *testing.T) {
	r := run(t, initLine, userLine,
		`{"type":"thinking","subtype":"delta","text":"Let me","session_id":"s1","timestamp_ms":1}`,
		`{"type":"thinking","subtype":"delta","text":" think.","session_id":"s1","timestamp_ms":2}`,
		`{"type":"thinking","subtype":"completed","session_id":"s1","timestamp_ms":3}`,
		final("Answer."), okResult)
	if got := r.Text(streaming.KindThinkingDelta); got != "Let me think." {
		t.Errorf("thinking = %q", got)
	}
	if got := assistantText(r); got != "Answer." {
		t.Errorf("text = %q", got)
	}
	th := r.Of(streaming.KindThinkingDelta)[0].Message
	closed := false
	for _, e := range r.Of(streaming.KindMessageStop) {
		closed = closed || e.Message == th
	}
	if !closed {
		t.Error("thinking completed did not end the block")
	}
	// Thinking lines are deltas (cursor.md): the same text twice is shown
	// twice; only a line that repeats the whole block (32 bytes or more)
	// and goes on is a snapshot, which the session repairs.
	r = run(t, initLine,
		`{"type":"thinking","subtype":"delta","text":"Let me think about the order of the steps.","session_id":"s1"}`,
		`{"type":"thinking","subtype":"delta","text":"Let me think about the order of the steps.","session_id":"s1"}`,
		`{"type":"thinking","subtype":"delta","text":"Let me think about the order of the steps.Let me think about the order of the steps. First","session_id":"s1"}`, okResult)
	if got, want := r.Text(streaming.KindThinkingDelta), strings.Repeat("Let me think about the order of the steps.", 2)+" First"; got != want {
		t.Errorf("thinking = %q, want %q", got, want)
	}
	if r.Stats.SnapshotAsDelta != 1 {
		t.Errorf("%d repairs, want 1", r.Stats.SnapshotAsDelta)
	}
}

func TestToolVariants(t *testing.T) {
	tc := func(sub, variant, args, result string) string {
		r := ""
		if result != "" {
			r = `,"result":` + result
		}
		return fmt.Sprintf(`{"type":"tool_call","subtype":%q,"call_id":"c1","tool_call":{%q:{"args":%s%s}},"session_id":"s1"}`, sub, variant, args, r)
	}
	tests := []struct {
		name             string
		variant, args    string
		result           string
		wantName, wTitle string
		wantStatus       streaming.ToolStatus
		wantOut          string
		wantExit         int // -1: none
	}{
		{"shell ok", "shellToolCall", `{"command":"ls"}`, `{"success":{"exitCode":0,"stdout":"a\n","stderr":"","executionTime":5}}`, "shell", "ls", streaming.ToolOK, "a\n", 0},
		{"shell exit 2", "shellToolCall", `{"command":"false"}`, `{"success":{"exitCode":2,"stdout":"","stderr":"boom","interleavedOutput":""}}`, "shell", "false", streaming.ToolError, "boom", 2},
		{"shell failure", "shellToolCall", `{"command":"x"}`, `{"failure":{"exitCode":127,"stdout":"","stderr":"x: not found"}}`, "shell", "x", streaming.ToolError, "x: not found", 127},
		{"read", "readToolCall", `{"path":"/a"}`, `{"success":{"content":"hello","totalLines":1}}`, "read", "/a", streaming.ToolOK, "hello", -1},
		{"read error", "readToolCall", `{"path":"/a"}`, `{"error":{"path":"/a","error":"No such file"}}`, "read", "/a", streaming.ToolError, "No such file", -1},
		{"write", "writeToolCall", `{"path":"/b","fileText":"x"}`, `{"success":{"path":"/b","linesCreated":1,"fileSize":1}}`, "write", "/b", streaming.ToolOK, "wrote /b (1 lines, 1 bytes)", -1},
		{"write rejected", "writeToolCall", `{"path":"/b"}`, `{"rejected":{"path":"/b","reason":"no"}}`, "write", "/b", streaming.ToolDeclined, "rejected: no", -1},
		{"edit", "editToolCall", `{"path":"/c"}`, `{"success":{"diffString":"-a\n+b"}}`, "edit", "/c", streaming.ToolOK, "-a\n+b", -1},
		{"delete", "deleteToolCall", `{"path":"/d"}`, `{"success":{"path":"/d","deletedFile":"/d"}}`, "delete", "/d", streaming.ToolOK, "deleted /d", -1},
		{"glob", "globToolCall", `{"globPattern":"*.go","targetDirectory":"/w"}`, `{"success":{"files":["a.go"]}}`, "glob", "*.go in /w", streaming.ToolOK, `{"files":["a.go"]}`, -1},
		{"mcp", "mcpToolCall", `{"name":"search","toolName":"search","providerIdentifier":"gh","args":{"q":"x"}}`, `{"success":{"content":[{"text":{"text":"found"}}],"isError":false}}`, "gh.search", "", streaming.ToolOK, "found", -1},
		{"mcp is error", "mcpToolCall", `{"toolName":"mcp__gh__search","args":{}}`, `{"success":{"content":[{"type":"text","text":"bad"}],"isError":true}}`, "gh.search", "", streaming.ToolError, "bad", -1},
		{"unknown variant", "webFetchToolCall", `{"url":"https://x.dev"}`, `{"success":{"markdown":"# X"}}`, "webFetch", "https://x.dev", streaming.ToolOK, "# X", -1},
		{"unknown failure key", "newToolCall", `{}`, `{"timeout":{"afterMs":1000}}`, "new", "", streaming.ToolError, `timeout: {"afterMs":1000}`, -1},
		{"no result", "fooToolCall", `{"a":1}`, "", "foo", "", streaming.ToolOK, "", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, initLine, tc("started", tt.variant, tt.args, ""), tc("completed", tt.variant, tt.args, tt.result), okResult)
			st := r.Of(streaming.KindToolStart)
			end := r.Of(streaming.KindToolEnd)
			if len(st) != 1 || len(end) != 1 {
				t.Fatalf("starts %d ends %d", len(st), len(end))
			}
			if st[0].Name != tt.wantName || st[0].Title != tt.wTitle {
				t.Errorf("name %q title %q, want %q %q", st[0].Name, st[0].Title, tt.wantName, tt.wTitle)
			}
			if tt.variant != "mcpToolCall" && st[0].Input != tt.args {
				t.Errorf("input %q, want %q", st[0].Input, tt.args)
			}
			e := end[0]
			if e.Status != tt.wantStatus || e.Output != tt.wantOut {
				t.Errorf("end %s %q, want %s %q", e.Status, e.Output, tt.wantStatus, tt.wantOut)
			}
			switch {
			case tt.wantExit < 0 && e.ExitCode != nil:
				t.Errorf("exit %d, want none", *e.ExitCode)
			case tt.wantExit >= 0 && (e.ExitCode == nil || *e.ExitCode != tt.wantExit):
				t.Errorf("exit %v, want %d", e.ExitCode, tt.wantExit)
			}
		})
	}
}

func TestFunctionVariantAndMissingStart(t *testing.T) {
	fn := `{"type":"tool_call","subtype":"completed","call_id":"f1","tool_call":{"function":{"name":"lookup","arguments":"{\"k\":1}"},"result":{"success":{"value":"v"}}},"session_id":"s1"}`
	r := run(t, initLine, fn, okResult)
	st := r.Of(streaming.KindToolStart)
	if len(st) != 1 || st[0].Name != "lookup" || st[0].Input != `{"k":1}` {
		t.Fatalf("start = %+v", st)
	}
	if n := len(r.Of(streaming.KindToolEnd)); n != 1 {
		t.Errorf("%d ends", n)
	}
}

func TestTodoPlan(t *testing.T) {
	n := 0
	todo := func(sub, args string) string {
		n++
		return fmt.Sprintf(`{"type":"tool_call","subtype":%q,"call_id":"t-%d","tool_call":{"todoToolCall":{"args":%s}},"session_id":"s1"}`, sub, n, args)
	}
	r := run(t, initLine,
		todo("started", `{"todos":[{"id":"1","content":"A","status":"TODO_STATUS_PENDING"},{"id":"2","content":"B","status":2}]}`),
		todo("started", `{"merge":true,"todos":[{"id":"1","status":"completed"}]}`),
		todo("started", `{"merge":true,"todos":[{"id":"1","status":"completed"}]}`),
		okResult)
	plans := r.Of(streaming.KindPlan)
	if len(plans) != 2 {
		t.Fatalf("%d plans, want 2 (the unchanged one is not repeated)", len(plans))
	}
	want := []streaming.PlanEntry{{Text: "A", Status: "completed"}, {Text: "B", Status: "in_progress"}}
	if fmt.Sprint(plans[1].Entries) != fmt.Sprint(want) {
		t.Errorf("plan = %+v, want %+v", plans[1].Entries, want)
	}
}

func TestOutcome(t *testing.T) {
	tests := []struct {
		name    string
		lines   []string
		want    streaming.Outcome
		wantWhy string
	}{
		{"success", []string{initLine, final("ok"), okResult}, streaming.Success, ""},
		{"is_error", []string{initLine, `{"type":"result","subtype":"error","is_error":true,"result":"quota exceeded","session_id":"s1"}`}, streaming.Failure, "error: quota exceeded"},
		{"error subtype", []string{initLine, `{"type":"result","subtype":"error_max_turns","is_error":false,"session_id":"s1"}`}, streaming.Failure, "error_max_turns"},
		{"no result", []string{initLine, frag("partial")}, streaming.Incomplete, ""},
		{"second run has no result", []string{initLine, final("a"), okResult, initLine, final("b")}, streaming.Incomplete, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.lines...)
			if r.Outcome != tt.want {
				t.Errorf("outcome %v, want %v", r.Outcome, tt.want)
			}
			if tt.wantWhy != "" && r.Reason != tt.wantWhy {
				t.Errorf("reason %q, want %q", r.Reason, tt.wantWhy)
			}
		})
	}
}

func TestUnknownLinesKept(t *testing.T) {
	r := run(t, initLine, `{"type":"interaction_query","subtype":"x","session_id":"s1"}`, `{"type":"system","subtype":"status","session_id":"s1"}`, okResult)
	u := r.Of(streaming.KindUnknown)
	if len(u) != 2 || u[0].Type != "interaction_query/x" || u[1].Type != "system/status" {
		t.Errorf("unknown = %+v", u)
	}
}

// TestSentenceTwiceAroundATool: a sentence said before and after a tool
// call is shown twice; each segment's recap (one after the tool call
// that ended its fragments) once.
func TestSentenceTwiceAroundATool(t *testing.T) {
	in, err := os.ReadFile("../../testdata/cursor/07-sentence-twice-around-a-tool.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := parsertest.Run(agents, string(in)).Check(t)
	if got := assistantText(r); got != "Let me check.Let me check.Green on the second run." {
		t.Errorf("assistant text %q", got)
	}
	if r.Answer != "Green on the second run." {
		t.Errorf("answer %q", r.Answer)
	}
}
