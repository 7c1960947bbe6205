package gemini_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

const (
	initLine = `{"type":"init","timestamp":"2026-10-08T03:56:00.000Z","session_id":"s-1","model":"gemini-2.5-pro"}`
	userLine = `{"type":"message","timestamp":"2026-10-08T03:56:00.001Z","role":"user","content":"do it"}`
	okLine   = `{"type":"result","timestamp":"2026-10-08T03:56:09.000Z","status":"success","stats":{"total_tokens":10,"input_tokens":8,"output_tokens":2,"duration_ms":900,"tool_calls":0}}`
)

func delta(s string) string {
	return `{"type":"message","timestamp":"2026-10-08T03:56:01.000Z","role":"assistant","content":` + quote(s) + `,"delta":true}`
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func run(t *testing.T, in string) parsertest.Result {
	t.Helper()
	return parsertest.Run(agents, in).Check(t)
}

func messages(r parsertest.Result, role string) []string {
	var ids []string
	for _, e := range r.Of(streaming.KindMessageStart) {
		if e.Role == role {
			ids = append(ids, e.Message)
		}
	}
	return ids
}

// The acceptance case: a chunk that repeats everything streamed so far
// (at least 32 bytes) is shown once, and the run exits 0.
func TestCumulativeThirdChunkShownOnce(t *testing.T) {
	first, second := "I'll look at the repository layout first, ", "then summarise what each package does."
	r := run(t, lines(initLine, userLine,
		delta(first), delta(second), delta(first+second+" Done."), okLine))
	want := first + second + " Done."
	if got := assistantText(r); got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	if r.Outcome != streaming.Success {
		t.Errorf("outcome = %v, want success", r.Outcome)
	}
	if r.Stats.SnapshotAsDelta != 1 {
		t.Errorf("SnapshotAsDelta = %d, want 1", r.Stats.SnapshotAsDelta)
	}
	if r.Answer != want {
		t.Errorf("answer = %q", r.Answer)
	}
}

// Short genuine repeats are deltas, not snapshots.
func TestShortRepeatsAreKept(t *testing.T) {
	r := run(t, lines(initLine, delta("="), delta("="), delta("="), okLine))
	if got := assistantText(r); got != "===" {
		t.Errorf("text = %q, want ===", got)
	}
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

// A tool event ends the paragraph: text before and after a tool are two
// assistant messages, and the final answer is the text after the tool.
func TestToolEndsParagraph(t *testing.T) {
	r := run(t, lines(initLine, userLine,
		delta("Let me "), delta("check."),
		`{"type":"tool_use","tool_name":"glob","tool_id":"g1","parameters":{"pattern":"*.go"}}`,
		delta("Still thinking"),
		`{"type":"tool_result","tool_id":"g1","status":"success","output":"a.go"}`,
		delta("Found "), delta("a.go."), okLine))
	if got := messages(r, streaming.RoleAssistant); len(got) != 3 {
		t.Fatalf("assistant messages = %v, want 3", got)
	}
	if r.Answer != "Found a.go." {
		t.Errorf("answer = %q", r.Answer)
	}
	if got := messages(r, streaming.RoleUser); len(got) != 1 {
		t.Errorf("user messages = %v", got)
	}
}

// Parallel calls: every tool_use before any tool_result; results pair by
// tool_id, not by order, and carry the name from their call.
func TestParallelToolsPairByID(t *testing.T) {
	r := run(t, lines(initLine,
		`{"type":"tool_use","tool_name":"read_file","tool_id":"a","parameters":{"file_path":"x"}}`,
		`{"type":"tool_use","tool_name":"run_shell_command","tool_id":"b","parameters":{"command":"ls -l"}}`,
		`{"type":"tool_result","tool_id":"b","status":"success","output":"total 0"}`,
		`{"type":"tool_result","tool_id":"a","status":"success","output":""}`,
		okLine))
	want := []streaming.Kind{streaming.KindToolStart, streaming.KindToolStart, streaming.KindToolEnd, streaming.KindToolEnd}
	var got []streaming.Kind
	for _, k := range r.Kinds() {
		if strings.HasPrefix(string(k), "tool.") {
			got = append(got, k)
		}
	}
	if strings.Join(kinds(got), ",") != strings.Join(kinds(want), ",") {
		t.Fatalf("tool events = %v", got)
	}
	ends := r.Of(streaming.KindToolEnd)
	if ends[0].ID != "b" || ends[0].Name != "run_shell_command" || ends[0].Output != "total 0" || ends[0].Status != streaming.ToolOK {
		t.Errorf("first end = %+v", ends[0])
	}
	if ends[1].ID != "a" || ends[1].Name != "read_file" {
		t.Errorf("second end = %+v", ends[1])
	}
	if starts := r.Of(streaming.KindToolStart); starts[1].Title != "ls -l" || starts[1].Input != `{"command":"ls -l"}` {
		t.Errorf("second start = %+v", starts[1])
	}
}

func kinds(ks []streaming.Kind) []string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return s
}

func TestToolResultStatus(t *testing.T) {
	cases := []struct {
		name, line string
		status     streaming.ToolStatus
		output     string
	}{
		{"success without output", `{"type":"tool_result","tool_id":"t","status":"success"}`, streaming.ToolOK, ""},
		{"error with same output and message", `{"type":"tool_result","tool_id":"t","status":"error","output":"bad path","error":{"type":"invalid_tool_params","message":"bad path"}}`, streaming.ToolError, "bad path"},
		{"error message only", `{"type":"tool_result","tool_id":"t","status":"error","error":{"type":"file_not_found","message":"no such file"}}`, streaming.ToolError, "no such file"},
		{"error output and other message", `{"type":"tool_result","tool_id":"t","status":"error","output":"exit 1","error":{"type":"shell_execute_error","message":"command failed"}}`, streaming.ToolError, "exit 1\ncommand failed"},
		{"error type only", `{"type":"tool_result","tool_id":"t","status":"error","error":{"type":"no_space_left"}}`, streaming.ToolError, "no_space_left"},
		{"policy rejection", `{"type":"tool_result","tool_id":"t","status":"error","error":{"type":"policy_violation","message":"denied"}}`, streaming.ToolDeclined, "denied"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, lines(initLine, `{"type":"tool_use","tool_name":"mcp__github__create_issue","tool_id":"t","parameters":{}}`, c.line, okLine))
			end := r.Of(streaming.KindToolEnd)
			if len(end) != 1 {
				t.Fatalf("tool.end events: %d", len(end))
			}
			if end[0].Status != c.status || end[0].Output != c.output {
				t.Errorf("end = status %q output %q, want %q %q", end[0].Status, end[0].Output, c.status, c.output)
			}
			if end[0].Name != "github.create_issue" {
				t.Errorf("name = %q", end[0].Name)
			}
		})
	}
}

func TestErrorLines(t *testing.T) {
	r := run(t, lines(initLine, delta("Working on it"),
		`{"type":"error","timestamp":"2026-10-08T03:56:02.000Z","severity":"warning","message":"Loop detected, stopping execution"}`,
		`{"type":"error","severity":"error","message":"Maximum session turns exceeded"}`,
		okLine))
	errs := r.Of(streaming.KindError)
	if len(errs) != 2 {
		t.Fatalf("errors = %d", len(errs))
	}
	if errs[0].Level != streaming.LevelWarning || errs[0].Fatal || errs[0].Text != "Loop detected, stopping execution" {
		t.Errorf("warning = %+v", errs[0])
	}
	if errs[1].Level == streaming.LevelWarning || errs[1].Fatal {
		t.Errorf("error = %+v", errs[1])
	}
	if errs[0].Time.IsZero() {
		t.Error("timestamp not parsed")
	}
	if r.Outcome != streaming.Success {
		t.Errorf("an error line must not end the run: outcome %v", r.Outcome)
	}
}

func TestResultOutcomes(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		outcome streaming.Outcome
		reason  string
	}{
		{"success", lines(initLine, okLine), streaming.Success, ""},
		{"error object", lines(initLine, `{"type":"result","status":"error","error":{"type":"FatalTurnLimitedError","message":"Reached max session turns"},"stats":{"duration_ms":0}}`),
			streaming.Failure, "FatalTurnLimitedError: Reached max session turns"},
		{"bare error after error line", lines(initLine, `{"type":"error","severity":"error","message":"Empty response from the model"}`, `{"type":"result","status":"error"}`),
			streaming.Failure, "Empty response from the model"},
		{"bare error", lines(initLine, `{"type":"result","status":"error"}`), streaming.Failure, "status error"},
		{"no result", lines(initLine, userLine, delta("half an ans")), streaming.Incomplete, "the stream ended before the run finished"},
		{"error line then EOF", lines(initLine, `{"type":"error","severity":"error","message":"boom"}`), streaming.Incomplete, "the stream ended before the run finished"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.in)
			if r.Outcome != c.outcome || r.Reason != c.reason {
				t.Errorf("outcome = %v %q, want %v %q", r.Outcome, r.Reason, c.outcome, c.reason)
			}
			if c.outcome == streaming.Incomplete && len(r.Of(streaming.KindResult)) != 0 {
				t.Error("a result was synthesized")
			}
		})
	}
}

func TestUsage(t *testing.T) {
	cases := []struct {
		name  string
		stats string
		want  streaming.Usage
	}{
		{"new stats", `{"total_tokens":66983,"input_tokens":65422,"output_tokens":219,"cached":32602,"input":32820,"duration_ms":11631,"tool_calls":2}`,
			streaming.Usage{InputTokens: 32820, OutputTokens: 219, CacheReadTokens: 32602}},
		{"0.11 stats", `{"total_tokens":7386,"input_tokens":7352,"output_tokens":16,"duration_ms":2239,"tool_calls":0}`,
			streaming.Usage{InputTokens: 7352, OutputTokens: 16}},
		{"cached without input", `{"input_tokens":100,"output_tokens":5,"cached":40}`,
			streaming.Usage{InputTokens: 60, OutputTokens: 5, CacheReadTokens: 40}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, lines(initLine, `{"type":"result","status":"success","stats":`+c.stats+`}`))
			res := r.Of(streaming.KindResult)
			if len(res) != 1 || res[0].Usage == nil {
				t.Fatalf("result = %+v", res)
			}
			if *res[0].Usage != c.want {
				t.Errorf("usage = %+v, want %+v", *res[0].Usage, c.want)
			}
		})
	}
	r := run(t, lines(initLine, `{"type":"result","status":"success"}`))
	if u := r.Of(streaming.KindResult)[0].Usage; u != nil {
		t.Errorf("usage without stats = %+v", u)
	}
}

func TestResultDurationAndModels(t *testing.T) {
	r := run(t, lines(initLine, `{"type":"result","status":"success","stats":{"duration_ms":11631,"models":{"gemini-3.1-flash-lite":{"total_tokens":1144},"gemini-3.5-flash":{"total_tokens":65839}}}}`))
	if d := r.Of(streaming.KindResult)[0].DurationMS; d != 11631 {
		t.Errorf("duration = %d", d)
	}
	st := r.Of(streaming.KindStatus)
	if len(st) != 1 || st[0].Text != "models: gemini-3.1-flash-lite 1144 tokens, gemini-3.5-flash 65839 tokens" || st[0].Level != streaming.LevelVerbose {
		t.Errorf("status = %+v: each model's tokens, as chatter", st)
	}
}

// The result names the models that answered (gemini.md "New in this
// pass"): init.model is the router alias auto-gemini-3; the router's own
// call (flash-lite) reads a short prompt and may write more than a
// one-line answer, so the model that answered is the one that read the
// most.
func TestResultModels(t *testing.T) {
	auto := `{"type":"init","session_id":"s","model":"auto-gemini-3"}`
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"router wrote less", lines(auto, `{"type":"result","status":"success","stats":{"models":{"gemini-2.5-flash-lite":{"total_tokens":982,"output_tokens":40},"gemini-3-flash-preview":{"total_tokens":16455,"output_tokens":80}}}}`),
			[]string{"gemini-3-flash-preview", "gemini-2.5-flash-lite"}},
		{"router wrote more", lines(auto, `{"type":"result","status":"success","stats":{"models":{"gemini-2.5-flash-lite":{"total_tokens":2724,"output_tokens":53},"gemini-3-flash-preview":{"total_tokens":9750,"output_tokens":12}}}}`),
			[]string{"gemini-3-flash-preview", "gemini-2.5-flash-lite"}},
		{"one model", lines(initLine, `{"type":"result","status":"success","stats":{"models":{"gemini-2.5-pro":{"total_tokens":10}}}}`), []string{"gemini-2.5-pro"}},
		{"none reported", lines(initLine, okLine), nil},
		{"-o json", `{"session_id":"s","response":"ok","stats":{"models":{"lite":{"tokens":{"total":900,"candidates":40}},"pro":{"tokens":{"total":50000,"candidates":12,"thoughts":300}}}}}` + "\n",
			[]string{"pro", "lite"}},
	} {
		r := run(t, c.in)
		res := r.Of(streaming.KindResult)
		if len(res) != 1 || strings.Join(res[0].Models, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: result models %+v, want %v", c.name, res, c.want)
		}
	}
}

// Gemini sends no complete assistant message, but one that repeats what
// was streamed must not show the text twice; the session compares (the
// parser keeps no copy or hash of the text).
func TestCompleteMessageNotDuplicated(t *testing.T) {
	complete := func(s string) string {
		return `{"type":"message","role":"assistant","content":` + quote(s) + `}`
	}
	tool := []string{`{"type":"tool_use","tool_name":"ls","tool_id":"t","parameters":{}}`,
		`{"type":"tool_result","tool_id":"t","status":"success"}`}
	cases := []struct {
		name      string
		in        string
		want      string
		revisions int
	}{
		{"repeat of open paragraph", lines(initLine, delta("Hello "), delta("world"), complete("Hello world"), okLine), "Hello world", 0},
		{"repeat of open paragraph but for white space", lines(initLine, delta("\nHello "), delta("world\n"), complete("Hello world"), okLine), "\nHello world\n", 0},
		{"extension of open paragraph", lines(initLine, delta("Hello "), complete("Hello world"), okLine), "Hello world", 0},
		// The whole run's text as the last paragraph's final rewrites it.
		{"whole run after tools", lines(initLine, delta("Checking. "), tool[0], tool[1],
			delta("Done."), complete("Checking. Done."), okLine), "Checking. Done.", 1},
		{"repeat of a paragraph an error line ended", lines(initLine, delta("Done."),
			`{"type":"error","severity":"warning","message":"w"}`, complete("Done."), okLine), "Done.", 0},
		{"new text after an error line", lines(initLine, delta("Done."),
			`{"type":"error","severity":"warning","message":"w"}`, complete("Retrying."), okLine), "Done.Retrying.", 0},
		{"said again after a tool call", lines(initLine, delta("Let me check."), tool[0], tool[1], complete("Let me check."), okLine),
			"Let me check.Let me check.", 0},
		{"new text", lines(initLine, complete("Only complete."), okLine), "Only complete.", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.in)
			if got := assistantText(r); got != c.want {
				t.Errorf("text = %q, want %q", got, c.want)
			}
			if n := len(r.Of(streaming.KindTextRevision)); n != c.revisions {
				t.Errorf("%d revisions, want %d", n, c.revisions)
			}
		})
	}
}

func TestUnknownTypePassedThrough(t *testing.T) {
	r := run(t, lines(initLine, delta("a"), `{"type":"thinking","content":"hmm"}`, delta("b"), okLine))
	u := r.Of(streaming.KindUnknown)
	if len(u) != 1 || u[0].Type != "thinking" {
		t.Fatalf("unknown = %+v", u)
	}
	// An unknown line does not split the paragraph.
	if got := messages(r, streaming.RoleAssistant); len(got) != 1 {
		t.Errorf("assistant messages = %v", got)
	}
}

func TestJSONModeObject(t *testing.T) {
	r := run(t, `{"session_id":"s","response":"Paris.","stats":{"models":{"m":{"tokens":{"input":10,"prompt":30,"candidates":2,"cached":20,"thoughts":3}}}}}`+"\n")
	if assistantText(r) != "Paris." || r.Outcome != streaming.Success || r.Answer != "Paris." {
		t.Errorf("text %q outcome %v answer %q", assistantText(r), r.Outcome, r.Answer)
	}
	if u := r.Of(streaming.KindResult)[0].Usage; u == nil || *u != (streaming.Usage{InputTokens: 10, OutputTokens: 5, CacheReadTokens: 20}) {
		t.Errorf("usage = %+v", u)
	}

	r = run(t, `{"session_id":"s","response":"partial","error":{"type":"INVALID_STREAM","message":"Model stream ended unexpectedly"}}`+"\n")
	if r.Outcome != streaming.Failure || r.Reason != "INVALID_STREAM: Model stream ended unexpectedly" {
		t.Errorf("outcome %v %q", r.Outcome, r.Reason)
	}
	if errs := r.Of(streaming.KindError); len(errs) != 1 || !errs[0].Fatal {
		t.Errorf("errors = %+v", errs)
	}
}

// A stream that starts without init (joined mid-way) still renders.
func TestNoInit(t *testing.T) {
	r := run(t, lines(delta("mid-way text"), okLine))
	if assistantText(r) != "mid-way text" || r.Outcome != streaming.Success {
		t.Errorf("text %q outcome %v", assistantText(r), r.Outcome)
	}
}

// Events come from the gemini parser and carry the line they came from.
func TestAgentAndLines(t *testing.T) {
	r := run(t, lines(initLine, userLine, delta("hi"), okLine))
	for _, e := range r.Events {
		if e.Agent != "gemini" {
			t.Errorf("%s: agent %q", e.Kind, e.Agent)
		}
	}
	if d := r.Of(streaming.KindTextDelta); d[len(d)-1].Line != 3 {
		t.Errorf("delta line = %d", d[len(d)-1].Line)
	}
}

// TestSentenceTwiceAroundATool: a sentence said before and after a tool
// call, streamed both times, is shown twice.
func TestSentenceTwiceAroundATool(t *testing.T) {
	in, err := os.ReadFile("../../testdata/gemini/09-sentence-twice-around-a-tool.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, string(in))
	if got := assistantText(r); got != "Let me check.Let me check.Green on the second run." {
		t.Errorf("assistant text %q", got)
	}
	if r.Answer != "Green on the second run." {
		t.Errorf("answer %q", r.Answer)
	}
}
