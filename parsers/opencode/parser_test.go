package opencode_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

const ses = "ses_test"

func env(typ, body string) string {
	return fmt.Sprintf(`{"type":%q,"timestamp":1767036059338,"sessionID":%q,%s}`, typ, ses, body)
}

func stepStart(msg string) string {
	return env("step_start", fmt.Sprintf(`"part":{"id":"prt_s_%s","messageID":%q,"sessionID":%q,"type":"step-start"}`, msg, msg, ses))
}

func stepFinish(msg, reason string) string {
	r := ""
	if reason != "-" {
		r = fmt.Sprintf(`"reason":%q,`, reason)
	}
	return env("step_finish", fmt.Sprintf(`"part":{"id":"prt_f_%s",%s"messageID":%q,"sessionID":%q,"type":"step-finish","tokens":{"input":10,"output":2,"reasoning":1,"cache":{"read":5,"write":3}},"cost":0.5}`, msg, r, msg, ses))
}

func text(msg, id, s string) string {
	return env("text", fmt.Sprintf(`"part":{"id":%q,"messageID":%q,"sessionID":%q,"type":"text","text":%q,"time":{"start":1,"end":2}}`, id, msg, ses, s))
}

func reasoning(msg, id, s string) string {
	return env("reasoning", fmt.Sprintf(`"part":{"id":%q,"messageID":%q,"sessionID":%q,"type":"reasoning","text":%q,"time":{"start":1,"end":2}}`, id, msg, ses, s))
}

func tool(msg, call, name, state string) string {
	return env("tool_use", fmt.Sprintf(`"part":{"id":"prt_t_%s","messageID":%q,"sessionID":%q,"type":"tool","callID":%q,"tool":%q,"state":%s}`, call, msg, ses, call, name, state))
}

const bashOK = `{"status":"completed","input":{"command":"ls","description":"List files"},"output":"a\nb\n","title":"List files","metadata":{"output":"a\nb\n","exit":0},"time":{"start":100,"end":175}}`

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func run(t *testing.T, in string) parsertest.Result {
	t.Helper()
	return parsertest.Run(agents, in).Check(t)
}

func TestRunOutcome(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		outcome streaming.Outcome
		reason  string
	}{
		{"stop ends the run", lines(stepStart("m1"), text("m1", "p1", "hi"), stepFinish("m1", "stop")), streaming.Success, ""},
		{"tool-calls then EOF is truncated", lines(stepStart("m1"), tool("m1", "c1", "bash", bashOK), stepFinish("m1", "tool-calls")), streaming.Incomplete, "the stream ended before the run finished"},
		{"unknown then EOF is truncated", lines(stepStart("m1"), stepFinish("m1", "unknown")), streaming.Incomplete, "the stream ended before the run finished"},
		{"length ends the run", lines(stepStart("m1"), text("m1", "p1", "cut"), stepFinish("m1", "length")), streaming.Success, ""},
		{"no step_finish", lines(stepStart("m1"), text("m1", "p1", "hi")), streaming.Incomplete, "the stream ended before the run finished"},
		{"missing reason after text", lines(stepStart("m1"), text("m1", "p1", "hi"), stepFinish("m1", "-")), streaming.Success, ""},
		{"missing reason after tools", lines(stepStart("m1"), tool("m1", "c1", "bash", bashOK), stepFinish("m1", "-")), streaming.Incomplete, "the stream ended before the run finished"},
		{"error after stop fails", lines(stepStart("m1"), text("m1", "p1", "hi"), stepFinish("m1", "stop"),
			env("error", `"error":{"name":"APIError","data":{"message":"Rate limit exceeded","statusCode":429,"isRetryable":true}}`)),
			streaming.Failure, "APIError: Rate limit exceeded (HTTP 429)"},
		{"error mid-run then stop fails", lines(stepStart("m1"),
			env("error", `"error":{"name":"ProviderAuthError","data":{"providerID":"openai","message":"bad key"}}`),
			stepStart("m2"), text("m2", "p1", "hi"), stepFinish("m2", "stop")),
			streaming.Failure, "ProviderAuthError: bad key"},
		{"error without data", lines(env("error", `"error":{"name":"MessageOutputLengthError","data":{}}`)), streaming.Failure, "MessageOutputLengthError"},
		{"done ends the run", lines(stepStart("m1"), tool("m1", "c1", "bash", bashOK), stepFinish("m1", "tool-calls"), env("done", `"reason":"idle","rejected":[]`)), streaming.Success, ""},
		{"done after error", lines(env("error", `"error":{"name":"MessageAbortedError","data":{"message":"Aborted"}}`), env("done", `"reason":"idle","rejected":[]`)), streaming.Failure, "MessageAbortedError: Aborted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.in)
			if r.Outcome != c.outcome || r.Reason != c.reason {
				t.Errorf("outcome = %v %q, want %v %q", r.Outcome, r.Reason, c.outcome, c.reason)
			}
			if n := len(r.Of(streaming.KindResult)); (c.outcome == streaming.Incomplete) != (n == 0) || n > 1 {
				t.Errorf("%d results", n)
			}
		})
	}
}

// "stop" is a hint: a step after it means the run went on, and only one
// result is emitted, at the real end.
func TestStopFollowedByAnotherStep(t *testing.T) {
	r := run(t, lines(
		stepStart("m1"), text("m1", "p1", "Let me check."), tool("m1", "c1", "bash", bashOK), stepFinish("m1", "stop"),
		stepStart("m2"), text("m2", "p2", "All done."), stepFinish("m2", "stop")))
	res := r.Of(streaming.KindResult)
	if len(res) != 1 {
		t.Fatalf("results = %d", len(res))
	}
	if res[0].Turns != 2 || r.Answer != "All done." {
		t.Errorf("turns %d answer %q", res[0].Turns, r.Answer)
	}
}

// Text parts are complete and written once; a part written again is
// shown once, during its step (the session compares it with what the part
// showed) and after (the session knows the part of a stopped message).
// The final answer is the text of the last message with text.
func TestTextPartsOnceByID(t *testing.T) {
	r := run(t, lines(stepStart("m1"),
		text("m1", "p1", "First part."),
		tool("m1", "c1", "bash", bashOK),
		text("m1", "p2", "Second part."),
		text("m1", "p1", "First part."),
		stepFinish("m1", "stop"),
		text("m1", "p2", "Second part.")))
	if got := r.Text(streaming.KindTextDelta); got != "First part.Second part." {
		t.Errorf("text = %q", got)
	}
	if got := r.Of(streaming.KindTextDelta); got[0].Block == got[1].Block || got[0].Message != "m1" {
		t.Errorf("blocks = %d %d msg %q", got[0].Block, got[1].Block, got[0].Message)
	}
	if r.Answer != "First part.\n\nSecond part." {
		t.Errorf("answer = %q", r.Answer)
	}
	if r.Stats.Duplicates != 2 || len(r.Of(streaming.KindMessageStop)) != 1 {
		t.Errorf("the session dropped %d duplicates, want 2 (the parser keeps no record of parts); %d message.stop",
			r.Stats.Duplicates, len(r.Of(streaming.KindMessageStop)))
	}
}

// An updated part (the server fired it again with more text) shows only
// what is new.
func TestUpdatedPartShowsSuffix(t *testing.T) {
	r := run(t, lines(stepStart("m1"), text("m1", "p1", "Hello"), text("m1", "p1", "Hello world"), stepFinish("m1", "stop")))
	if got := r.Text(streaming.KindTextDelta); got != "Hello world" {
		t.Errorf("text = %q", got)
	}
	if r.Answer != "Hello world" {
		t.Errorf("answer = %q", r.Answer)
	}
}

func TestEmptyTextAndToolOnlyStep(t *testing.T) {
	r := run(t, lines(stepStart("m1"), text("m1", "p1", "  \n"), tool("m1", "c1", "bash", bashOK), stepFinish("m1", "tool-calls")))
	if n := len(r.Of(streaming.KindMessageStart)); n != 0 {
		t.Errorf("a step without text opened %d messages", n)
	}
}

func TestReasoning(t *testing.T) {
	r := run(t, lines(stepStart("m1"), reasoning("m1", "r1", "Think first."), text("m1", "p1", "Answer."), reasoning("m1", "r1", "Think first."), stepFinish("m1", "stop")))
	th := r.Of(streaming.KindThinkingDelta)
	if len(th) != 1 || th[0].Text != "Think first." || th[0].Message != "m1" {
		t.Fatalf("thinking = %+v", th)
	}
	if r.Answer != "Answer." {
		t.Errorf("answer = %q", r.Answer)
	}
}

func TestToolEvents(t *testing.T) {
	cases := []struct {
		name   string
		state  string
		status streaming.ToolStatus
		output string
		exit   *int
		ms     int64
		title  string
	}{
		{"completed", bashOK, streaming.ToolOK, "a\nb\n", streaming.IntPtr(0), 75, "List files"},
		{"failed command", `{"status":"completed","input":{"command":"false"},"output":"","title":"false","metadata":{"output":"","exit":1},"time":{"start":1,"end":3}}`,
			streaming.ToolOK, "", streaming.IntPtr(1), 2, "false"},
		{"old exitCode key", `{"status":"completed","input":{"command":"rg"},"output":"x","title":"rg","metadata":{"exitCode":2}}`,
			streaming.ToolOK, "x", streaming.IntPtr(2), 0, "rg"},
		{"output only in metadata", `{"status":"completed","input":{},"output":"","title":"t","metadata":{"output":"from meta"}}`,
			streaming.ToolOK, "from meta", nil, 0, "t"},
		{"error", `{"status":"error","input":{"filePath":"/x","description":"Read x"},"error":"File not found: /x","time":{"start":10,"end":14}}`,
			streaming.ToolError, "File not found: /x", nil, 4, "Read x"},
		{"rejected", `{"status":"error","input":{"command":"rm -rf /"},"error":"The user rejected permission to use this specific tool call."}`,
			streaming.ToolDeclined, "The user rejected permission to use this specific tool call.", nil, 0, ""},
		{"denied by rule", `{"status":"error","input":{},"error":"The user has specified a rule which prevents you from using this specific tool call."}`,
			streaming.ToolDeclined, "The user has specified a rule which prevents you from using this specific tool call.", nil, 0, ""},
		{"image attachment", `{"status":"completed","input":{},"output":"Image read","title":"shot.png","metadata":{},"attachments":[{"type":"file","mime":"image/png","url":"data:image/png;base64,` + strings.Repeat("A", 4000) + `"}]}`,
			streaming.ToolOK, "Image read\n‹image/png 3 KB›", nil, 0, "shot.png"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, lines(stepStart("m1"), tool("m1", "call_1", "bash", c.state), stepFinish("m1", "tool-calls")))
			starts, ends := r.Of(streaming.KindToolStart), r.Of(streaming.KindToolEnd)
			if len(starts) != 1 || len(ends) != 1 {
				t.Fatalf("starts %d ends %d", len(starts), len(ends))
			}
			if starts[0].ID != "call_1" || starts[0].Name != "bash" || starts[0].Title != c.title || !strings.HasPrefix(starts[0].Input, "{") {
				t.Errorf("start = %+v", starts[0])
			}
			e := ends[0]
			if e.Status != c.status || e.Output != c.output || e.DurationMS != c.ms {
				t.Errorf("end = status %q output %q ms %d", e.Status, e.Output, e.DurationMS)
			}
			if (e.ExitCode == nil) != (c.exit == nil) || (e.ExitCode != nil && *e.ExitCode != *c.exit) {
				t.Errorf("exit = %v, want %v", e.ExitCode, c.exit)
			}
		})
	}
}

// Pending and running states are not written by the CLI; if they are,
// they start the call once and the completed state ends it.
func TestRunningThenCompleted(t *testing.T) {
	r := run(t, lines(stepStart("m1"),
		tool("m1", "c1", "bash", `{"status":"running","input":{"command":"ls"},"title":"ls","time":{"start":1}}`),
		tool("m1", "c1", "bash", bashOK),
		stepFinish("m1", "tool-calls")))
	if s, e := len(r.Of(streaming.KindToolStart)), len(r.Of(streaming.KindToolEnd)); s != 1 || e != 1 {
		t.Errorf("starts %d ends %d", s, e)
	}
	if r.Stats.Duplicates != 0 || r.Stats.Implicit != 0 {
		t.Errorf("stats = %+v", r.Stats)
	}
}

func TestTodoWritePlan(t *testing.T) {
	state := `{"status":"completed","input":{"todos":[{"content":"a","status":"completed","priority":"high"},{"content":"b","status":"pending","priority":"low"}]},"output":"","title":"1 todo","metadata":{}}`
	r := run(t, lines(stepStart("m1"), tool("m1", "c1", "todowrite", state), stepFinish("m1", "tool-calls")))
	p := r.Of(streaming.KindPlan)
	if len(p) != 1 || len(p[0].Entries) != 2 || p[0].Entries[0] != (streaming.PlanEntry{Text: "a", Status: "completed", Priority: "high"}) {
		t.Errorf("plan = %+v", p)
	}
}

func TestUsage(t *testing.T) {
	r := run(t, lines(stepStart("m1"), stepFinish("m1", "tool-calls"), stepStart("m2"), stepFinish("m2", "stop")))
	us := r.Of(streaming.KindUsage)
	want := streaming.Usage{InputTokens: 10, OutputTokens: 3, CacheReadTokens: 5, CacheWriteTokens: 3, CostUSD: 0.5, HasCost: true}
	if len(us) != 2 || *us[0].Usage != want {
		t.Fatalf("usage events = %+v", us)
	}
	res := r.Of(streaming.KindResult)[0]
	sum := streaming.Usage{InputTokens: 20, OutputTokens: 6, CacheReadTokens: 10, CacheWriteTokens: 6, CostUSD: 1, HasCost: true}
	if res.Usage == nil || *res.Usage != sum {
		t.Errorf("result usage = %+v", res.Usage)
	}
	if res.Turns != 2 {
		t.Errorf("turns = %d", res.Turns)
	}
}

func TestDoneReportsRejected(t *testing.T) {
	r := run(t, lines(stepStart("m1"), stepFinish("m1", "stop"), env("done", `"reason":"idle","rejected":["bash","webfetch"]`)))
	st := r.Of(streaming.KindStatus)
	if len(st) != 1 || st[0].Level != streaming.LevelWarning || st[0].Text != "permissions auto-rejected: bash, webfetch" {
		t.Errorf("status = %+v", st)
	}
	if n := len(r.Of(streaming.KindResult)); n != 1 {
		t.Errorf("results = %d", n)
	}
}

// A new sessionID is a new run: the previous one ends (with its result
// when it finished), the new one starts.
func TestSessionChange(t *testing.T) {
	other := strings.ReplaceAll(lines(stepStart("m9"), text("m9", "p9", "second run"), stepFinish("m9", "stop")), ses, "ses_other")
	r := run(t, lines(stepStart("m1"), text("m1", "p1", "first run"), stepFinish("m1", "stop"))+other)
	if r.Stats.Runs != 2 || len(r.Of(streaming.KindResult)) != 2 {
		t.Errorf("runs %d results %d", r.Stats.Runs, len(r.Of(streaming.KindResult)))
	}
	if r.Answer != "second run" || r.Outcome != streaming.Success {
		t.Errorf("answer %q outcome %v", r.Answer, r.Outcome)
	}
	ss := r.Of(streaming.KindSessionStart)
	if ss[0].SessionID != ses || ss[1].SessionID != "ses_other" {
		t.Errorf("sessions = %q %q", ss[0].SessionID, ss[1].SessionID)
	}
}

func TestCRLFAndNoise(t *testing.T) {
	in := strings.ReplaceAll(lines(stepStart("m1"), "plugin loaded", text("m1", "p1", "ok"), stepFinish("m1", "stop")), "\n", "\r\n")
	r := run(t, in)
	if r.Answer != "ok" || r.Outcome != streaming.Success {
		t.Errorf("answer %q outcome %v", r.Answer, r.Outcome)
	}
	if raw := r.Of(streaming.KindRaw); len(raw) != 1 || raw[0].Text != "plugin loaded" {
		t.Errorf("raw = %+v", raw)
	}
}

func TestUnknownType(t *testing.T) {
	r := run(t, lines(stepStart("m1"), env("part_delta", `"part":{"id":"p1"},"delta":"x"`), stepFinish("m1", "stop")))
	if u := r.Of(streaming.KindUnknown); len(u) != 1 || u[0].Type != "part_delta" {
		t.Errorf("unknown = %+v", u)
	}
}

func TestTimesAndDuration(t *testing.T) {
	r := run(t, lines(
		`{"type":"step_start","timestamp":1000,"sessionID":"s","part":{"id":"a","messageID":"m","type":"step-start"}}`,
		`{"type":"step_finish","timestamp":4500,"sessionID":"s","part":{"id":"b","messageID":"m","type":"step-finish","reason":"stop"}}`))
	res := r.Of(streaming.KindResult)
	if len(res) != 1 || res[0].DurationMS != 3500 || res[0].Time.UnixMilli() != 4500 {
		t.Errorf("result = %+v", res)
	}
}

// Sanitized logs (no timestamp, no ids) still render.
func TestMissingFields(t *testing.T) {
	r := run(t, lines(
		`{"type":"step_start","sessionID":"s","part":{"type":"step-start"}}`,
		`{"type":"text","sessionID":"s","part":{"type":"text","text":"one"}}`,
		`{"type":"tool_use","sessionID":"s","part":{"type":"tool","tool":"bash","state":{"status":"completed","output":"x"}}}`,
		`{"type":"text","sessionID":"s","part":{"type":"text","text":"two"}}`,
		`{"type":"step_finish","sessionID":"s","part":{"type":"step-finish"}}`))
	if got := r.Text(streaming.KindTextDelta); got != "onetwo" {
		t.Errorf("text = %q", got)
	}
	// The step ran a tool and has no reason: not known to be over.
	if r.Outcome != streaming.Incomplete {
		t.Errorf("outcome = %v", r.Outcome)
	}
}

func TestErrorShapes(t *testing.T) {
	cases := []struct{ body, text string }{
		{`"error":{"name":"APIError","data":{"message":"Overloaded","statusCode":529,"isRetryable":false}}`, "Overloaded (HTTP 529)"},
		{`"error":{"name":"UnknownError","data":{"message":"boom","ref":"err_2"}}`, "boom"},
		{`"error":{"name":"MessageOutputLengthError","data":{}}`, "MessageOutputLengthError"},
		{`"error":"plain string"`, "plain string"},
		{`"error":{"message":"sdk body"}`, "sdk body"},
	}
	for _, c := range cases {
		r := run(t, lines(env("error", c.body)))
		errs := r.Of(streaming.KindError)
		if len(errs) != 1 || errs[0].Text != c.text || !errs[0].Fatal {
			t.Errorf("%s: errors = %+v", c.body, errs)
		}
		if r.Outcome != streaming.Failure {
			t.Errorf("%s: outcome %v", c.body, r.Outcome)
		}
	}
}

// A part of an earlier step written again in the middle of a later one is
// not shown again and does not end the later step's message.
func TestLatePartInLaterStep(t *testing.T) {
	r := run(t, lines(stepStart("m1"), text("m1", "p1", "First."), stepFinish("m1", "tool-calls"),
		stepStart("m2"), text("m1", "p1", "First."), text("m2", "p2", "Second."), text("m1", "p1", "First."),
		text("m2", "p3", "Third."), stepFinish("m2", "stop")))
	if got := r.Text(streaming.KindTextDelta); got != "First.Second.Third." {
		t.Errorf("text = %q", got)
	}
	var got []string
	for _, e := range r.Events {
		if e.Kind == streaming.KindMessageStart || e.Kind == streaming.KindMessageStop || e.Kind == streaming.KindTextDelta {
			got = append(got, fmt.Sprintf("%s %s/%d", e.Kind, e.Message, e.Block))
		}
	}
	want := "message.start m1/0 text.delta m1/0 message.stop m1/0 message.start m2/0 text.delta m2/0 text.delta m2/1 message.stop m2/0"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	if r.Answer != "Second.\n\nThird." {
		t.Errorf("answer = %q", r.Answer)
	}
}
