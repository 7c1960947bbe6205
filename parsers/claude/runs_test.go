package claude_test

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// Runs that do not begin with a prompt (docs/formats/claude.md):
// /clear, and the turn the CLI starts by itself after a background task.

const (
	answerLine  = `{"type":"assistant","message":{"id":"%s","role":"assistant","content":[{"type":"text","text":"%s"}]},"parent_tool_use_id":null,"session_id":"s1"}`
	resetLine   = `{"type":"conversation_reset","new_conversation_id":"conv-x","uuid":"u","session_id":"s1"}`
	clearInit   = `{"type":"system","subtype":"init","cwd":"/p","session_id":"s2","tools":["Bash"],"model":"claude-opus-5","claude_code_version":"2.1.278"}`
	clearResult = `{"is_error":false,"duration_api_ms":0,"num_turns":0,"stop_reason":null,"session_id":"s2","total_cost_usd":0,"subtype":"success","result":"","local_command":"clear","type":"result","duration_ms":118}`
	taskDone    = `{"type":"system","subtype":"task_notification","task_id":"b1","tool_use_id":"toolu_1","status":"completed","summary":"sleep 6; echo A","session_id":"s1"}`
	taskKilled  = `{"type":"system","subtype":"task_updated","task_id":"b2","patch":{"status":"killed"},"session_id":"s1"}`
	taskStopped = `{"type":"system","subtype":"task_notification","task_id":"b2","tool_use_id":"toolu_2","status":"stopped","summary":"sleep 1000","session_id":"s1"}`
	autoResult  = `{"duration_api_ms":700,"session_id":"s1","total_cost_usd":0.03,"is_error":%s,"num_turns":1,"subtype":"success","result":"GOT-A","origin":{"kind":"task-notification","producer":"session-task"},"type":"result","duration_ms":900,"result_index":1}`
)

func answer(id, text string) string {
	return strings.Replace(strings.Replace(answerLine, "%s", id, 1), "%s", text, 1)
}

func autoResultWith(isError string) string { return strings.Replace(autoResult, "%s", isError, 1) }

// statuses are the texts of the status events, with their level.
func statuses(r parsertest.Result) map[string]string {
	m := map[string]string{}
	for _, e := range r.Of(streaming.KindStatus) {
		m[e.Text] = e.Level
	}
	return m
}

func TestClearBeginsANamedRun(t *testing.T) {
	r := run(t, initLine, answer("m1", "first"), resultWith("first"), resetLine, clearInit, clearResult)
	if n := len(r.Of(streaming.KindSessionStart)); n != 2 {
		t.Fatalf("%d session starts: /clear begins a run", n)
	}
	if n := len(r.Of(streaming.KindNotice)); n != 0 {
		t.Errorf("notices %+v: a /clear is not a run cut short", r.Of(streaming.KindNotice))
	}
	want := "new conversation after /clear (the last session was s1)"
	if lvl := statuses(r)[want]; lvl != streaming.LevelInfo {
		t.Errorf("statuses %v: want %q at info (every format shows it)", statuses(r), want)
	}
	// Said in the new run, after its header.
	kinds := r.Kinds()
	second := -1
	for i, k := range kinds {
		if k == streaming.KindSessionStart {
			second = i
		}
	}
	if second < 0 || second+1 >= len(r.Events) || r.Events[second+1].Text != want {
		t.Errorf("the status does not follow the new session.start: %v", kinds)
	}
	if r.Outcome != streaming.Success {
		t.Errorf("outcome %v (%s)", r.Outcome, r.Reason)
	}
}

func TestTaskNotificationTurnNamed(t *testing.T) {
	// With the init the CLI writes for the turn: said after it.
	r := run(t, initLine, answer("m1", "started"), resultWith("started"), taskDone, initLine, answer("m2", "GOT-A"), autoResultWith("false"))
	want := "turn started by a background task's notification (sleep 6; echo A), not by a prompt"
	if statuses(r)[want] != streaming.LevelInfo {
		t.Errorf("statuses %v: want %q", statuses(r), want)
	}
	if n := strings.Count(strings.Join(keys(statuses(r)), "\n"), "turn started by"); n != 1 {
		t.Errorf("said %d times", n)
	}
	// Without one: said before its result.
	r = run(t, initLine, answer("m1", "started"), resultWith("started"), answer("m2", "GOT-A"), autoResultWith("false"))
	if statuses(r)["turn started by a background task's notification, not by a prompt"] != streaming.LevelInfo {
		t.Errorf("statuses %v", statuses(r))
	}
	// A normal second turn is not said to be one.
	r = run(t, initLine, answer("m1", "one"), resultWith("one"), initLine, answer("m2", "two"), resultWith("two"))
	for s := range statuses(r) {
		if strings.Contains(s, "turn started by") {
			t.Errorf("status %q on a prompted turn", s)
		}
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestTaskNotificationTurnExitIsTheLastRuns(t *testing.T) {
	// The exit status is the last run's, and the turn a task
	// notification started is a run.
	failed := strings.Replace(resultLine, `"subtype":"success","is_error":false`, `"subtype":"error_max_turns","is_error":true`, 1)
	for _, c := range []struct {
		name  string
		lines []string
		want  streaming.Outcome
	}{
		{"first ok, auto turn fails", []string{initLine, resultWith("started"), taskDone, initLine, autoResultWith("true")}, streaming.Failure},
		{"first fails, auto turn ok", []string{initLine, failed, taskDone, initLine, answer("m2", "GOT-A"), autoResultWith("false")}, streaming.Success},
		{"auto turn ok, tasks end after it", []string{initLine, resultWith("started"), taskDone, initLine, answer("m2", "GOT-A"), autoResultWith("false"), taskKilled, taskStopped}, streaming.Success},
	} {
		r := run(t, c.lines...)
		if r.Outcome != c.want {
			t.Errorf("%s: outcome %v (%s), want %v", c.name, r.Outcome, r.Reason, c.want)
		}
	}
}

func TestEventsAfterTheLastResult(t *testing.T) {
	r := run(t, initLine, answer("m1", "GOT-A"), resultWith("GOT-A"), taskKilled, taskStopped)
	if r.Outcome != streaming.Success || r.Answer != "GOT-A" {
		t.Errorf("outcome %v answer %q: bookkeeping after the result changes neither", r.Outcome, r.Answer)
	}
	if n := len(r.Of(streaming.KindNotice)) + len(r.Of(streaming.KindSessionStart)); n != 1 {
		t.Errorf("%d notices and session starts, want the one start", n)
	}
	st := statuses(r)
	for _, text := range []string{"task b2 killed", "task stopped: sleep 1000"} {
		if lvl, ok := st[text]; !ok || lvl != streaming.LevelVerbose {
			t.Errorf("status %q: %q (have %v): shown, as chatter", text, lvl, st)
		}
	}
	failed := strings.Replace(taskStopped, `"status":"stopped"`, `"status":"failed"`, 1)
	r = run(t, initLine, resultWith("x"), failed)
	if lvl := statuses(r)["task failed: sleep 1000"]; lvl != streaming.LevelWarning {
		t.Errorf("a failed task: level %q, want a warning", lvl)
	}
}

// Two runs written to one pipe at once (two claude -p, one stream): a line
// of the first run after the second's init is said, once, as a warning;
// runs that follow one another, and /clear's new session, are no mix.
func TestTwoSessionsInterleaved(t *testing.T) {
	t.Parallel()
	in2 := strings.ReplaceAll(initLine, `"s1"`, `"s2"`)
	of2 := func(l string) string { return strings.ReplaceAll(l, `"s1"`, `"s2"`) }
	const warning = "this stream holds two sessions written at once"
	said := func(r parsertest.Result) int {
		n := 0
		for text, level := range statuses(r) {
			if strings.HasPrefix(text, warning) {
				n++
				if level != streaming.LevelWarning || !strings.Contains(text, "(s1 and s2)") {
					t.Errorf("said %q at %s", text, level)
				}
			}
		}
		return n
	}
	mixed := run(t, initLine, in2, answer("m1", "one"), of2(answer("m2", "two")), answer("m3", "three"), resultWith("three"), of2(resultWith("two")))
	if n := said(mixed); n != 1 {
		t.Errorf("interleaved runs: said %d times, want once", n)
	}
	for name, r := range map[string]parsertest.Result{
		"one after the other": run(t, initLine, answer("m1", "one"), resultWith("one"), in2, of2(answer("m2", "two")), of2(resultWith("two"))),
		"/clear":              run(t, initLine, answer("m1", "first"), resultWith("first"), resetLine, clearInit, clearResult),
	} {
		if n := said(r); n != 0 {
			t.Errorf("%s: said %d times", name, n)
		}
	}
}
