package antigravity

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

var self = []parsers.Agent{Agent}

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		line string
		want parsers.Confidence
	}{
		{`{"event":"init","conversation_id":"c","init":{"cwd":"/w"}}`, parsers.Decisive},
		{`{"event":"step_update","step_update":{"step_index":0,"state":"DONE","step_type":"user_input"}}`, parsers.Decisive},
		{`{"event":"result","result":{"status":"SUCCESS"}}`, parsers.Decisive},
		{`{"event":"command_result","command":{"name":"models","data":{}}}`, parsers.Decisive},
		{`{"conversation_id":"c","status":"SUCCESS","response":"ok\n","num_turns":1}`, parsers.Decisive},
		// Gemini CLI's stream-json uses type; a stdin turn is not output.
		{`{"type":"init","session_id":"s","model":"gemini-2.5-pro"}`, parsers.No},
		{`{"type":"result","status":"success","stats":{}}`, parsers.No},
		{`{"event":"user","message":{"content":"hi"}}`, parsers.No},
		{`{"event":"step_update","step_update":"x"}`, parsers.No},
	} {
		if got := detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestSubject(t *testing.T) {
	for _, c := range []struct{ params, want string }{
		{`{"Cwd":"/w","CommandLine":"ls -la \u003e out"}`, "ls -la > out"},
		{`{"SearchDirectory":"/w","Pattern":"*.go"}`, "*.go"},
		{`{"AbsolutePath":"/w/a.go","StartLine":1}`, "/w/a.go"},
		{`{"WaitMsBeforeAsync":500}`, `{"WaitMsBeforeAsync":500}`},
	} {
		if got := parsers.SubjectOf("", c.params, tools.Subject); got != c.want {
			t.Errorf("subject(%s) = %q, want %q", c.params, got, c.want)
		}
	}
}

func TestSeconds(t *testing.T) {
	for raw, want := range map[string]int64{"1.6222910000000001": 1622, "0": 0, "": 0, "21.448852": 21449} {
		if got := seconds(raw); got != want {
			t.Errorf("seconds(%q) = %d, want %d", raw, got, want)
		}
	}
}

func stepLine(idx int, state, typ, extra string) string {
	return `{"event":"step_update","step_update":{"conversation_id":"c","step_index":` + string(rune('0'+idx)) +
		`,"state":"` + state + `","step_type":"` + typ + `"` + extra + `}}`
}

const initLine = `{"event":"init","conversation_id":"c","init":{"cwd":"/w","tools":["run_command"],"permission_mode":"always-proceed"}}`

func result(status, response, extra string) string {
	return `{"event":"result","result":{"conversation_id":"c","status":"` + status + `","response":"` + response + `"` + extra + `,"num_turns":1}}`
}

// TestOutcome: the result's status decides, whatever agy's own exit
// status was (it exits 0 on ERROR after a tool error, and on CANCELED).
func TestOutcome(t *testing.T) {
	for _, c := range []struct {
		name   string
		lines  []string
		want   streaming.Outcome
		reason string
	}{
		{"success", []string{initLine, result("SUCCESS", "ok", "")}, streaming.Success, ""},
		{"error", []string{initLine, result("ERROR", "I explained", `,"error":"tool call denied"`)}, streaming.Failure, "tool call denied"},
		{"canceled", []string{initLine, result("CANCELED", "", "")}, streaming.Failure, "canceled"},
		{"no result", []string{initLine, stepLine(0, "DONE", "user_input", "")}, streaming.Incomplete, ""},
		{"turn after a result", []string{initLine, result("SUCCESS", "ok", ""), stepLine(3, "DONE", "user_input", ""),
			stepLine(4, "ACTIVE", "agent_response", `,"text_delta":"t2"`)}, streaming.Incomplete, ""},
		{"json mode", []string{`{"conversation_id":"c","status":"ERROR","response":"","error":"timeout waiting for response","num_turns":0}`},
			streaming.Failure, "timeout waiting for response"},
	} {
		res := parsertest.Run(self, strings.Join(c.lines, "\n")).Check(t)
		if res.Outcome != c.want || (c.reason != "" && res.Reason != c.reason) {
			t.Errorf("%s: outcome %v (%q), want %v (%q)", c.name, res.Outcome, res.Reason, c.want, c.reason)
		}
	}
}

// TestResponseOnce: result.response repeats the streamed text and is
// shown only when nothing was streamed.
func TestResponseOnce(t *testing.T) {
	streamed := strings.Join([]string{initLine,
		stepLine(2, "ACTIVE", "agent_response", `,"text_delta":"Hello, "`),
		stepLine(2, "DONE", "agent_response", `,"text_delta":"world.\n","usage":{"input_tokens":5,"output_tokens":2}`),
		result("SUCCESS", `Hello, world.\n`, "")}, "\n")
	bare := strings.Join([]string{initLine, result("SUCCESS", `Hello, world.\n`, "")}, "\n")
	for name, in := range map[string]string{"streamed": streamed, "not streamed": bare} {
		res := parsertest.Run(self, in).Check(t)
		if got := res.Text(streaming.KindTextDelta); got != "Hello, world.\n" {
			t.Errorf("%s: text %q", name, got)
		}
		if res.Answer != "Hello, world.\n" {
			t.Errorf("%s: answer %q", name, res.Answer)
		}
	}
}

// TestToolSteps: ACTIVE starts a call, DONE or ERROR ends it; a terminal
// update never seen ACTIVE starts it first (with its input); a step still
// ACTIVE at the result ends incomplete there; a log holding one run twice
// shows both runs' calls.
func TestToolSteps(t *testing.T) {
	tool := func(idx int, state, extra string) string {
		return stepLine(idx, state, "tool", `,"tool_name":"run_command","tool_info":{"name":"run_command","parameters":{"CommandLine":"ls"}`+extra+`}`)
	}
	run := strings.Join([]string{initLine,
		tool(3, "ACTIVE", ""), tool(3, "DONE", `,"output":"a\n"`),
		tool(4, "ERROR", `,"error":{"type":"TOOL_ERROR","message":"denied"}`),
		tool(5, "ACTIVE", ""),
		result("ERROR", "", `,"error":"timeout waiting for response"`)}, "\n") + "\n"
	res := parsertest.Run(self, run+run).Check(t)
	starts, ends := res.Of(streaming.KindToolStart), res.Of(streaming.KindToolEnd)
	if len(starts) != 6 || len(ends) != 6 {
		t.Fatalf("%d starts, %d ends, want 6 each:\n%s", len(starts), len(ends), res.Dump())
	}
	for i, want := range []streaming.ToolStatus{streaming.ToolOK, streaming.ToolError, streaming.ToolIncomplete} {
		if e := ends[i]; e.Status != want {
			t.Errorf("end %d: %s, want %s", i, e.Status, want)
		}
	}
	if ends[0].Output != "a\n" || ends[1].Output != "denied" {
		t.Errorf("outputs %q, %q", ends[0].Output, ends[1].Output)
	}
	if starts[1].Input == "" || starts[1].Subject != "ls" {
		t.Errorf("the start of a step first seen ERROR: %+v", starts[1])
	}
	if res.Stats.Implicit != 0 || res.Stats.Duplicates != 0 {
		t.Errorf("session repairs: %+v", res.Stats)
	}
}

// TestUsageNotAdded: per-call usage is passed on per call, and the
// result's cumulative usage as it is.
func TestUsageNotAdded(t *testing.T) {
	in := strings.Join([]string{initLine,
		stepLine(2, "DONE", "agent_response", `,"usage":{"input_tokens":100,"output_tokens":10,"cache_read_tokens":7}`),
		stepLine(3, "DONE", "agent_response", `,"text_delta":"x","usage":{"input_tokens":200,"output_tokens":20}`),
		result("SUCCESS", "x", `,"usage":{"input_tokens":300,"output_tokens":30,"cache_read_tokens":7,"total_tokens":330}`)}, "\n")
	res := parsertest.Run(self, in).Check(t)
	us := res.Of(streaming.KindUsage)
	if len(us) != 2 || us[0].Usage.InputTokens != 100 || us[0].Usage.CacheReadTokens != 7 || us[1].Usage.OutputTokens != 20 {
		t.Errorf("usage events %+v", us)
	}
	r := res.Of(streaming.KindResult)
	if len(r) != 1 || r[0].Usage == nil || *r[0].Usage != (streaming.Usage{InputTokens: 300, OutputTokens: 30, CacheReadTokens: 7}) {
		t.Errorf("result %+v", r)
	}
}

func TestCommandResult(t *testing.T) {
	res := parsertest.Run(self, `{"event":"command_result","command":{"name":"models","data":{"models":[{"id":"gemini-3.7-flash-high"}]}}}`).Check(t)
	st := res.Of(streaming.KindStatus)
	if len(st) != 1 || !strings.HasPrefix(st[0].Text, "command models: ") || !strings.Contains(st[0].Text, "gemini-3.7-flash-high") {
		t.Errorf("status %+v", st)
	}
}
