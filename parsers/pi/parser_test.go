package pi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/pi"
	"github.com/agentfmt/agentfmt/streaming"
)

const header = `{"type":"session","version":3,"id":"s1","timestamp":"2026-08-01T10:00:00.000Z","cwd":"/w"}`

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func user(text string) string {
	m := fmt.Sprintf(`{"role":"user","content":%q,"timestamp":1}`, text)
	return lines(`{"type":"message_start","message":`+m+`}`, `{"type":"message_end","message":`+m+`}`)
}

// assistant is a whole assistant message: text, a stop reason and an
// error message.
func assistant(text, stop, errMsg string) string {
	content := "[]"
	if text != "" {
		content = fmt.Sprintf(`[{"type":"text","text":%q}]`, text)
	}
	m := fmt.Sprintf(`{"role":"assistant","content":%s,"provider":"openai-codex","model":"gpt-5.5","usage":{"input":10,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":12,"cost":{"total":0.001}},"stopReason":%q,"errorMessage":%q,"timestamp":2}`, content, stop, errMsg)
	return lines(`{"type":"message_start","message":{"role":"assistant","content":[],"timestamp":2}}`, `{"type":"message_end","message":`+m+`}`)
}

func agentEnd(willRetry bool) string {
	return fmt.Sprintf(`{"type":"agent_end","messages":[],"willRetry":%v}`, willRetry) + "\n"
}

func run(t *testing.T, in string) parsertest.Result {
	t.Helper()
	return parsertest.Run(agents, in).Check(t)
}

func TestRunOutcome(t *testing.T) {
	start := header + "\n" + `{"type":"agent_start"}` + "\n" + `{"type":"turn_start"}` + "\n"
	cases := []struct {
		name    string
		in      string
		outcome streaming.Outcome
		reason  string
		answer  string
	}{
		{"stop", start + user("hi") + assistant("Hello.", "stop", "") + agentEnd(false), streaming.Success, "", "Hello."},
		{"usage limit error, as in the capture", start + user("hi") + assistant("", "error", "Codex error: The usage limit has been reached") + agentEnd(false),
			streaming.Failure, "Codex error: The usage limit has been reached (openai-codex/gpt-5.5)", ""},
		{"aborted without a message", start + assistant("", "aborted", "") + agentEnd(false), streaming.Failure, "request aborted (openai-codex/gpt-5.5)", ""},
		{"cut at the output limit is an answer", start + assistant("Partial", "length", "") + agentEnd(false), streaming.Success, "", "Partial"},
		{"retry pending at the end of input", start + assistant("", "error", "529 overloaded") + agentEnd(true), streaming.Incomplete, "the stream ended before the run finished", ""},
		{"retry that succeeds", start + assistant("", "error", "529 overloaded") + agentEnd(true) +
			`{"type":"auto_retry_start","attempt":1,"maxAttempts":3,"delayMs":2000,"errorMessage":"529 overloaded"}` + "\n" +
			`{"type":"agent_start"}` + "\n" + assistant("Done.", "stop", "") + agentEnd(false), streaming.Success, "", "Done."},
		{"retried, then settled without another try", start + assistant("", "error", "529 overloaded") + agentEnd(true) + `{"type":"agent_settled"}` + "\n",
			streaming.Failure, "529 overloaded (openai-codex/gpt-5.5)", ""},
		{"no agent_end", start + user("hi") + assistant("Working", "toolUse", ""), streaming.Incomplete, "the stream ended before the run finished", ""},
		{"only agent_end: its messages stand in", `{"type":"agent_end","messages":[{"role":"user","content":"hi","timestamp":1},{"role":"assistant","content":[{"type":"text","text":"Hi there."}],"stopReason":"stop","timestamp":2}]}` + "\n",
			streaming.Success, "", "Hi there."},
		{"second prompt fails: the last run decides", start + assistant("One.", "stop", "") + agentEnd(false) +
			`{"type":"agent_start"}` + "\n" + assistant("", "error", "boom") + agentEnd(false), streaming.Failure, "boom (openai-codex/gpt-5.5)", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.in)
			if r.Outcome != c.outcome || r.Reason != c.reason {
				t.Errorf("outcome = %v %q, want %v %q", r.Outcome, r.Reason, c.outcome, c.reason)
			}
			if c.answer != "" && r.Answer != c.answer {
				t.Errorf("answer = %q, want %q", r.Answer, c.answer)
			}
			if c.outcome == streaming.Failure {
				errs := r.Of(streaming.KindError)
				if len(errs) == 0 || !errs[len(errs)-1].Fatal || errs[len(errs)-1].Text != c.reason {
					t.Errorf("the failure is not said as an error: %+v", errs)
				}
			}
		})
	}
}

// A prompt after a finished run is a run of its own, of the same session;
// a retry is not.
func TestRuns(t *testing.T) {
	in := header + "\n" + `{"type":"agent_start"}` + "\n" + assistant("", "error", "x") + agentEnd(true) +
		`{"type":"agent_start"}` + "\n" + assistant("One.", "stop", "") + agentEnd(false) +
		`{"type":"agent_start"}` + "\n" + assistant("Two.", "stop", "") + agentEnd(false)
	r := run(t, in)
	starts, results := r.Of(streaming.KindSessionStart), r.Of(streaming.KindResult)
	if len(starts) != 2 || len(results) != 2 || starts[1].SessionID != "s1" || starts[1].CWD != "/w" {
		t.Errorf("%d runs, %d results: %+v", len(starts), len(results), starts)
	}
	if results[0].Turns != 0 || !results[0].OK {
		t.Errorf("first result %+v", results[0])
	}
}

// Deltas are deltas per content index; text_end, done and message_end
// repeat the block and add nothing; the old shape's cumulative message
// and partial are not read.
func TestStreamedTextOnce(t *testing.T) {
	upd := func(ev string) string {
		return `{"type":"message_update","message":{"role":"assistant","content":[{"type":"text","text":"junk"}]},"assistantMessageEvent":` + ev + "}"
	}
	final := `{"role":"assistant","content":[{"type":"thinking","thinking":"Hm."},{"type":"text","text":"Hello world"}],"stopReason":"stop","timestamp":3}`
	r := run(t, lines(header, `{"type":"agent_start"}`,
		`{"type":"message_start","message":{"role":"assistant","content":[],"timestamp":3}}`,
		upd(`{"type":"thinking_delta","contentIndex":0,"delta":"Hm.","partial":{"content":[{"type":"thinking","thinking":"junk"}]}}`),
		upd(`{"type":"text_delta","contentIndex":1,"delta":"Hello "}`),
		upd(`{"type":"text_delta","contentIndex":1,"delta":"world"}`),
		upd(`{"type":"text_end","contentIndex":1,"content":"Hello world"}`),
		`{"type":"message_update","assistantMessageEvent":{"type":"done","reason":"stop","message":`+final+`}}`,
		`{"type":"message_end","message":`+final+`}`,
		`{"type":"turn_end","message":`+final+`,"toolResults":[]}`,
		`{"type":"agent_end","messages":[`+final+`]}`))
	if got := r.Text(streaming.KindTextDelta); got != "Hello world" {
		t.Errorf("text %q", got)
	}
	if got := r.Text(streaming.KindThinkingDelta); got != "Hm." {
		t.Errorf("thinking %q", got)
	}
	if r.Outcome != streaming.Success || r.Answer != "Hello world" {
		t.Errorf("%v %q", r.Outcome, r.Answer)
	}
}

// A tool call starts once (toolcall_end, message_end, tool_execution_start
// all name it), its updates are snapshots of all its output so far, and
// isError fails it; the edit tool's replacements are its file edits.
func TestTools(t *testing.T) {
	args := `{"path":"a.go","edits":[{"oldText":"x := 1","newText":"x := 2"}]}`
	tc := `{"type":"toolCall","id":"c1","name":"edit","arguments":` + args + `}`
	r := run(t, lines(header, `{"type":"agent_start"}`,
		`{"type":"message_start","message":{"role":"assistant","content":[],"timestamp":3}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":0,"id":"c1","toolName":"edit"}}`,
		`{"type":"message_update","assistantMessageEvent":{"type":"toolcall_end","contentIndex":0,"toolCall":`+tc+`}}`,
		`{"type":"message_end","message":{"role":"assistant","content":[`+tc+`],"stopReason":"toolUse","timestamp":3}}`,
		`{"type":"tool_execution_start","toolCallId":"c1","toolName":"edit","args":`+args+`}`,
		`{"type":"tool_execution_start","toolCallId":"c2","toolName":"bash","args":{"command":"make"}}`,
		`{"type":"tool_execution_update","toolCallId":"c2","toolName":"bash","partialResult":{"content":[{"type":"text","text":"a\n"}]}}`,
		`{"type":"tool_execution_update","toolCallId":"c2","toolName":"bash","partialResult":{"content":[{"type":"text","text":"a\nb\n"}]}}`,
		`{"type":"tool_execution_end","toolCallId":"c2","toolName":"bash","result":{"content":[{"type":"text","text":"a\nb\nmake: *** Error 2"}]},"isError":true}`,
		`{"type":"tool_execution_end","toolCallId":"c1","toolName":"edit","result":{"content":[{"type":"text","text":"Successfully replaced 1 block(s) in a.go."}],"details":{}},"isError":false}`,
		`{"type":"message_end","message":{"role":"toolResult","toolCallId":"c1","toolName":"edit","content":[{"type":"text","text":"again"}],"isError":false,"timestamp":4}}`))
	starts, ends := r.Of(streaming.KindToolStart), r.Of(streaming.KindToolEnd)
	if len(starts) != 2 || len(ends) != 2 || r.Stats.Duplicates != 0 {
		t.Fatalf("%d starts, %d ends, %d duplicates", len(starts), len(ends), r.Stats.Duplicates)
	}
	if e := starts[0].Edits; len(e) != 1 || e[0].Path != "a.go" || e[0].Old != "x := 1" || e[0].New != "x := 2" {
		t.Errorf("edits %+v", e)
	}
	if got := r.Text(streaming.KindToolOutputDelta); got != "a\nb\n" {
		t.Errorf("output deltas %q", got)
	}
	if ends[0].ID != "c2" || ends[0].Status != streaming.ToolError || ends[1].Status != streaming.ToolOK {
		t.Errorf("ends %+v", ends)
	}
}

func TestSessionEvents(t *testing.T) {
	r := run(t, lines(header,
		`{"type":"auto_retry_start","attempt":2,"maxAttempts":3,"delayMs":1500,"errorMessage":"overloaded"}`,
		`{"type":"auto_retry_end","success":false,"attempt":3,"finalError":"still overloaded"}`,
		`{"type":"compaction_start","reason":"overflow"}`,
		`{"type":"compaction_end","reason":"overflow","aborted":false,"willRetry":false,"errorMessage":"too small"}`,
		`{"type":"queue_update","steering":[],"followUp":[]}`,
		`{"type":"some_new_event","x":1}`))
	var got []string
	for _, e := range r.Events {
		if e.Kind == streaming.KindStatus || e.Kind == streaming.KindUnknown {
			got = append(got, string(e.Kind)+": "+e.Text+e.Type)
		}
	}
	want := []string{
		"status: retrying (attempt 2 of 3) in 1.5s after: overloaded",
		"status: retries gave up after attempt 3: still overloaded",
		"status: compacting the context (overflow)",
		"status: compaction failed: too small",
		`unknown: {"type":"some_new_event","x":1}some_new_event`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDetect(t *testing.T) {
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		{header, parsers.Decisive},
		{`{"type":"agent_start"}`, parsers.Decisive},
		{`{"type":"agent_end","messages":[],"willRetry":false}`, parsers.Decisive},
		{`{"type":"message_start","message":{"role":"user","content":"hi","timestamp":1}}`, parsers.Decisive},
		{`{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"x"}}`, parsers.Decisive},
		{`{"type":"tool_execution_end","toolCallId":"c","toolName":"bash","result":{},"isError":false}`, parsers.Decisive},
		{`{"type":"queue_update","steering":[],"followUp":[]}`, parsers.Maybe},
		// Other agents' lines.
		{`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`, parsers.No}, // Anthropic's raw event
		{`{"type":"system","subtype":"init","session_id":"s","tools":[]}`, parsers.No},
		{`{"type":"session","id":"x"}`, parsers.No},
		{`{"type":"session","id":"x","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}`, parsers.Decisive}, // an older header, no version
		{`{"type":"turn.started"}`, parsers.No},
		{`{"type":"message","role":"assistant","content":"x","delta":true}`, parsers.No},
		{`{"payloads":[],"meta":{"durationMs":1}}`, parsers.No},
	}
	for _, c := range cases {
		if got := pi.Agent.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}

// A usage event is the run's usage so far (the renderers show the latest
// as the run's), and the result's is the run's total; a new run starts
// from nothing.
func TestUsageIsTheRunsSoFar(t *testing.T) {
	start := header + "\n" + `{"type":"agent_start"}` + "\n"
	r := run(t, start+assistant("a", "toolUse", "")+assistant("b", "stop", "")+agentEnd(false)+
		`{"type":"agent_start"}`+"\n"+assistant("c", "stop", "")+agentEnd(false))
	var in []int64
	for _, e := range r.Events {
		if e.Kind == streaming.KindUsage || e.Kind == streaming.KindResult {
			in = append(in, e.Usage.InputTokens)
		}
	}
	if fmt.Sprint(in) != "[10 20 20 10 10]" {
		t.Errorf("input tokens of usage and result events %v, want [10 20 20 10 10]", in)
	}
}

// pi's tools: the subject of each default tool's call, and the edits of
// edit (current and older arguments) and write.
func TestToolKnowledge(t *testing.T) {
	for _, c := range []struct {
		name, input, subject string
		edits                int
	}{
		{"bash", `{"command":"go test ./...","timeout":60}`, "go test ./...", 0},
		{"read", `{"path":"a.go","offset":10,"limit":20}`, "a.go", 0},
		{"grep", `{"pattern":"TODO","path":"."}`, "TODO", 0},
		{"edit", `{"path":"a.go","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}`, "a.go", 2},
		{"edit", `{"path":"a.go","oldText":"a","newText":"b"}`, "a.go", 1},
		{"write", `{"path":"new.go","content":"package x\n"}`, "new.go", 1},
		{"read", `{"path":"a.go","content":"not a write"}`, "a.go", 0},
	} {
		r := run(t, lines(header, `{"type":"agent_start"}`,
			fmt.Sprintf(`{"type":"tool_execution_start","toolCallId":"c1","toolName":%q,"args":%s}`, c.name, c.input)))
		st := r.Of(streaming.KindToolStart)
		if len(st) != 1 || st[0].Subject != c.subject || len(st[0].Edits) != c.edits {
			t.Errorf("%s %s: %+v", c.name, c.input, st)
		}
	}
}
