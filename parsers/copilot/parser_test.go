package copilot

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

var self = []parsers.Agent{Agent}

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		line string
		want parsers.Confidence
	}{
		{`{"type":"assistant.message","data":{"messageId":"m"},"id":"e","timestamp":"t"}`, parsers.Decisive},
		{`{"type":"session.background_tasks_changed","data":{},"ephemeral":true,"id":"e"}`, parsers.Decisive},
		{`{"type":"abort","data":{"reason":"user_initiated"},"id":"e"}`, parsers.Decisive},
		{`{"type":"result","timestamp":"t","sessionId":"s","exitCode":0,"usage":{}}`, parsers.Decisive},
		// Claude's result and Codex's dotted items are not Copilot's.
		{`{"type":"result","subtype":"success","is_error":false,"result":"ok"}`, parsers.No},
		{`{"type":"item.started","item":{"id":"i","type":"command_execution"}}`, parsers.No},
		{`{"type":"turn.completed","usage":{}}`, parsers.No},
		{`{"type":"assistant.message","data":"[REDACTED]"}`, parsers.No},
		{`{"event":"init","init":{}}`, parsers.No},
	} {
		if got := detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestCutExitTrailer(t *testing.T) {
	for _, c := range []struct {
		in, out string
		code    int
		ok      bool
	}{
		{"hello\n<shellId: 0 completed with exit code 0>", "hello\n", 0, true},
		{"FAIL\n<shellId: 3 completed with exit code 2>\n", "FAIL\n", 2, true},
		{"<shellId: 1 completed with exit code 127>", "", 127, true},
		{"no trailer here", "no trailer here", 0, false},
		{"<shellId: 0 still running>", "<shellId: 0 still running>", 0, false},
		{"x <shellId: 0 completed with exit code nope>", "x <shellId: 0 completed with exit code nope>", 0, false},
	} {
		out, code, ok := cutExitTrailer(c.in)
		if out != c.out || code != c.code || ok != c.ok {
			t.Errorf("cutExitTrailer(%q) = %q, %d, %v; want %q, %d, %v", c.in, out, code, ok, c.out, c.code, c.ok)
		}
	}
}

func TestDiffEdit(t *testing.T) {
	for _, c := range []struct {
		diff, path, op string
	}{
		{"diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n@@ -1 +1 @@\n-a\n+b\n", "main.go", streaming.EditModify},
		{"--- /dev/null\n+++ b/new.txt\t2026-10-03\n@@ -0,0 +1 @@\n+x\n", "new.txt", streaming.EditCreate},
		{"--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n", "old.txt", streaming.EditDelete},
		{"@@ -1 +1 @@\n-a\n+b\n", "", streaming.EditModify},
	} {
		ed := diffEdit(c.diff)
		if ed.Path != c.path || ed.Op != c.op || ed.Diff != c.diff {
			t.Errorf("diffEdit(%q) = %+v, want path %q op %q", c.diff, ed, c.path, c.op)
		}
	}
	if looksDiff("File main.go updated with changes.") {
		t.Error("a sentence is not a diff")
	}
}

// line builds a session event line.
// line is one event of the given type, with an event id of its own (as
// Copilot's are: an id seen again is the log repeating).
func line(typ, data string, extra ...string) string {
	lineSeq++
	return `{"type":"` + typ + `","data":` + data + `,"id":"e` + strconv.Itoa(lineSeq) + `"` + strings.Join(extra, "") + `}`
}

var lineSeq int

const okResult = `{"type":"result","timestamp":"2026-10-03T00:00:01Z","sessionId":"s","exitCode":0,"usage":{"sessionDurationMs":1000}}`

// TestReasoningOnce: reasoning may come as deltas, as the message's
// reasoningText and as assistant.reasoning, in any combination (and with
// a reasoningId that does not match): it is shown once, whole.
func TestReasoningOnce(t *testing.T) {
	const r = "I should look at the tests first."
	delta1 := line("assistant.reasoning_delta", `{"reasoningId":"r1","deltaContent":"I should look "}`)
	delta2 := line("assistant.reasoning_delta", `{"reasoningId":"r1","deltaContent":"at the tests first."}`)
	msg := line("assistant.message", `{"messageId":"m1","content":"Done.","toolRequests":[],"reasoningText":"`+r+`"}`)
	msgBare := line("assistant.message", `{"messageId":"m1","content":"Done.","toolRequests":[]}`)
	full := line("assistant.reasoning", `{"reasoningId":"[REDACTED]","content":"`+r+`"}`)
	for name, lines := range map[string][]string{
		"all three":          {delta1, delta2, msg, full},
		"deltas and message": {delta1, delta2, msg},
		"deltas and full":    {delta1, delta2, msgBare, full},
		"message and full":   {msg, full},
		"full only":          {msgBare, full},
		"message only":       {msg},
	} {
		in := line("assistant.turn_start", `{"turnId":"0"}`) + "\n" + strings.Join(lines, "\n") + "\n" + okResult + "\n"
		res := parsertest.Run(self, in).Check(t)
		if got := res.Text(streaming.KindThinkingDelta); got != r {
			t.Errorf("%s: thinking %q, want %q", name, got, r)
		}
		if got := res.Text(streaming.KindTextDelta); got != "Done." {
			t.Errorf("%s: text %q", name, got)
		}
		if res.Outcome != streaming.Success {
			t.Errorf("%s: outcome %v", name, res.Outcome)
		}
	}
}

// TestRedacted: "[REDACTED]" where text, tool requests, arguments or a
// result were leaves the streamed text and output standing.
func TestRedacted(t *testing.T) {
	in := strings.Join([]string{
		line("user.message", `{"content":"[REDACTED]","transformedContent":"hi"}`),
		line("assistant.message_delta", `{"messageId":"m1","deltaContent":"Streamed "}`),
		line("assistant.message_delta", `{"messageId":"m1","deltaContent":"answer."}`),
		line("assistant.message", `{"messageId":"m1","content":"[REDACTED]","toolRequests":"[REDACTED]"}`),
		line("tool.execution_start", `{"toolCallId":"t1","toolName":"bash","arguments":"[REDACTED]"}`),
		line("tool.execution_partial_result", `{"toolCallId":"t1","partialOutput":"out\n"}`),
		line("tool.execution_complete", `{"toolCallId":"t1","success":true,"result":"[REDACTED]"}`),
		okResult,
	}, "\n")
	res := parsertest.Run(self, in).Check(t)
	if got := res.Text(streaming.KindTextDelta); got != "Streamed answer." {
		t.Errorf("text %q", got)
	}
	if res.Answer != "Streamed answer." {
		t.Errorf("answer %q", res.Answer)
	}
	ends := res.Of(streaming.KindToolEnd)
	if len(ends) != 1 || ends[0].Output != "out\n" || ends[0].Status != streaming.ToolOK {
		t.Errorf("tool end %+v", ends)
	}
	for _, e := range res.Events {
		if strings.Contains(e.Text, "[REDACTED]") || strings.Contains(e.Input, "[REDACTED]") {
			t.Errorf("%s shows the redaction marker: %+v", e.Kind, e)
		}
	}
}

// TestOutcome: the result's exitCode, a session error, an abort and a
// missing result decide the exit status.
func TestOutcome(t *testing.T) {
	user := line("user.message", `{"content":"go"}`)
	for _, c := range []struct {
		name   string
		lines  []string
		want   streaming.Outcome
		reason string
	}{
		{"ok", []string{user, okResult}, streaming.Success, ""},
		{"exit code", []string{user, strings.Replace(okResult, `"exitCode":0`, `"exitCode":1`, 1)}, streaming.Failure, "copilot exited with status 1"},
		{"session error", []string{user, line("session.error", `{"errorType":"quota","message":"out of requests"}`), okResult}, streaming.Failure, "quota: out of requests"},
		{"abort", []string{user, line("abort", `{"reason":"user_initiated"}`), okResult}, streaming.Failure, "aborted (user_initiated)"},
		{"idle aborted", []string{user, line("assistant.idle", `{"aborted":true}`), okResult}, streaming.Failure, "aborted"},
		{"no result", []string{user, line("assistant.turn_start", `{"turnId":"0"}`)}, streaming.Incomplete, ""},
		{"a new run without a result", []string{user, okResult, user, line("assistant.turn_start", `{"turnId":"0"}`)}, streaming.Incomplete, ""},
		{"error then a new run", []string{user, line("session.error", `{"message":"boom"}`), okResult, user, okResult}, streaming.Success, ""},
	} {
		res := parsertest.Run(self, strings.Join(c.lines, "\n")).Check(t)
		if res.Outcome != c.want || (c.reason != "" && res.Reason != c.reason) {
			t.Errorf("%s: outcome %v (%q), want %v (%q)", c.name, res.Outcome, res.Reason, c.want, c.reason)
		}
	}
}

// TestRunsScoped: a log holding the same run twice shows both runs' tool
// calls and text (the wire ids repeat).
func TestRunsScoped(t *testing.T) {
	run := strings.Join([]string{
		line("user.message", `{"content":"go"}`),
		line("tool.execution_start", `{"toolCallId":"toolu_01","toolName":"bash","arguments":{"command":"ls"}}`),
		line("tool.execution_complete", `{"toolCallId":"toolu_01","success":true,"result":{"content":"a\n"}}`),
		line("assistant.message", `{"messageId":"m1","content":"One file.","toolRequests":[]}`),
		okResult,
	}, "\n") + "\n"
	res := parsertest.Run(self, run+run).Check(t)
	if n := len(res.Of(streaming.KindToolEnd)); n != 2 {
		t.Errorf("%d tool ends, want 2", n)
	}
	if got := res.Text(streaming.KindTextDelta); got != "One file.One file." {
		t.Errorf("text %q", got)
	}
	if n := len(res.Of(streaming.KindSessionStart)); n != 2 {
		t.Errorf("%d session starts, want 2", n)
	}
}

// TestPreamble: the lines before the prompt begin no run of their own;
// the run's session.start carries the model they named.
func TestPreamble(t *testing.T) {
	in := strings.Join([]string{
		line("session.mcp_server_status_changed", `{"serverName":"gh","status":"connected"}`),
		line("session.mcp_servers_loaded", `{"servers":[{"name":"gh","status":"connected"}]}`),
		line("session.tools_updated", `{"model":"gpt-5.6-sol"}`),
		line("user.message", `{"content":"go"}`),
		okResult,
	}, "\n")
	res := parsertest.Run(self, in).Check(t)
	starts := res.Of(streaming.KindSessionStart)
	if len(starts) != 1 || starts[0].Model != "gpt-5.6-sol" {
		t.Errorf("session starts %+v", starts)
	}
	if res.Events[0].Kind != streaming.KindSessionStart {
		t.Errorf("first event %s", res.Events[0].Kind)
	}
	if n := len(res.Of(streaming.KindStatus)) + len(res.Of(streaming.KindUnknown)); n != 0 {
		t.Errorf("%d preamble lines shown", n)
	}
}

// TestQuiet: the types the notes say to ignore (telemetry, floods,
// interactive-only families) show nothing; a type nobody knows is kept
// as an unknown event named by its type.
func TestQuiet(t *testing.T) {
	var lines []string
	for _, typ := range []string{"model.call_start", "session.background_tasks_changed", "session.usage_checkpoint",
		"assistant.tool_call_delta", "hook.start", "permission.requested", "exit_plan_mode.requested", "session.mode_changed"} {
		lines = append(lines, line(typ, `{}`))
	}
	lines = append(lines, line("session.something_new", `{"x":1}`), okResult)
	res := parsertest.Run(self, line("user.message", `{"content":"go"}`)+"\n"+strings.Join(lines, "\n")).Check(t)
	for _, e := range res.Events {
		switch e.Kind {
		case streaming.KindSessionStart, streaming.KindMessageStart, streaming.KindTextDelta, streaming.KindBlockStop, streaming.KindMessageStop, streaming.KindResult:
		case streaming.KindUnknown:
			if e.Type != "session.something_new" {
				t.Errorf("unknown event %q", e.Type)
			}
		default:
			t.Errorf("a quiet line gave %s: %+v", e.Kind, e)
		}
	}
	if n := len(res.Of(streaming.KindUnknown)); n != 1 {
		t.Errorf("%d unknown events, want 1", n)
	}
}

func TestUsageNote(t *testing.T) {
	for in, want := range map[string]string{
		`{"premiumRequests":1,"totalApiDurationMs":7931,"sessionDurationMs":9980}`:                                        "1 premium request · API time 7.9s",
		`{"premiumRequests":0.33,"codeChanges":{"linesAdded":3,"linesRemoved":1,"filesModified":["a","b"]}}`:              "0.33 premium requests · +3 −1 lines in 2 files",
		`{"premiumRequests":0,"totalApiDurationMs":0,"codeChanges":{"linesAdded":0,"linesRemoved":0,"filesModified":[]}}`: "",
		`{}`: "",
	} {
		if got := usageNote(gjson.Parse(in)); got != want {
			t.Errorf("usageNote(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestReasoningPerCall: each model call's reasoning is its own, with or
// without turn_start lines between the calls, streamed or not.
func TestReasoningPerCall(t *testing.T) {
	turn := line("assistant.turn_start", `{"turnId":"0"}`)
	call := func(n string, streamed bool) []string {
		var l []string
		if streamed {
			l = append(l, line("assistant.reasoning_delta", `{"reasoningId":"r`+n+`","deltaContent":"think `+n+`"}`))
		}
		l = append(l, line("assistant.message", `{"messageId":"m`+n+`","content":"","toolRequests":[],"reasoningText":"think `+n+`"}`),
			line("assistant.reasoning", `{"reasoningId":"r`+n+`","content":"think `+n+`"}`))
		return l
	}
	for _, c := range []struct {
		name  string
		turns bool
		s1    bool
		s2    bool
	}{{"turns, whole", true, false, false}, {"no turns, whole", false, false, false},
		{"no turns, streamed", false, true, true}, {"no turns, mixed", false, false, true}, {"turns, mixed", true, true, false}} {
		var lines []string
		if c.turns {
			lines = append(lines, turn)
		}
		lines = append(lines, call("1", c.s1)...)
		if c.turns {
			lines = append(lines, turn)
		}
		lines = append(lines, call("2", c.s2)...)
		lines = append(lines, okResult)
		res := parsertest.Run(self, strings.Join(lines, "\n")).Check(t)
		if got := res.Text(streaming.KindThinkingDelta); got != "think 1think 2" {
			t.Errorf("%s: thinking %q, want each call's once", c.name, got)
		}
	}
}

// TestShellSubject: a shell call's subject is the CLI's displayCommand,
// even when its arguments are redacted; else the generic subject.
func TestShellSubject(t *testing.T) {
	for args, want := range map[string]string{
		`"arguments":"[REDACTED]","shellToolInfo":{"displayCommand":"go test ./...","possiblePaths":[],"hasWriteFileRedirection":false}`: "go test ./...",
		`"arguments":{"command":"ls -la","description":"List"}`:                                                                          "ls -la",
	} {
		res := parsertest.Run(self, line("tool.execution_start", `{"toolCallId":"t1","toolName":"bash",`+args+`}`)).Check(t)
		if s := res.Of(streaming.KindToolStart); len(s) != 1 || s[0].Subject != want {
			t.Errorf("%s: starts %+v, want subject %q", args, s, want)
		}
	}
}

// TestRepeatedLogBeginsRun: -p stdout has no session.start, so a log that
// repeats without a result between (a cut-off run, `cat` twice) begins a
// run where its first event comes back: its calls show twice, each run
// shown as the first (the preamble's warning, then the run).
func TestRepeatedLogBeginsRun(t *testing.T) {
	log := strings.Join([]string{
		`{"type":"session.mcp_server_status_changed","data":{"serverName":"db","status":"failed"},"id":"p1"}`,
		`{"type":"user.message","data":{"content":"go"},"id":"u1"}`,
		`{"type":"tool.execution_start","data":{"toolCallId":"t1","toolName":"bash","arguments":{"command":"ls"}},"id":"x1"}`,
	}, "\n") + "\n"
	res := parsertest.Run(self, log+log).Check(t)
	var kinds []streaming.Kind
	for _, e := range res.Events {
		switch e.Kind {
		case streaming.KindSessionStart, streaming.KindStatus, streaming.KindToolStart:
			kinds = append(kinds, e.Kind)
		}
	}
	want := []streaming.Kind{streaming.KindStatus, streaming.KindSessionStart, streaming.KindToolStart,
		streaming.KindStatus, streaming.KindSessionStart, streaming.KindToolStart}
	if !slices.Equal(kinds, want) {
		t.Errorf("events %v, want %v", kinds, want)
	}
}
