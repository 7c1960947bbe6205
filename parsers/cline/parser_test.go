package cline_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// lines joins JSON lines into an input.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func texts(r parsertest.Result, kind streaming.Kind, role string) []string {
	var out []string
	for _, e := range r.Events {
		if e.Kind == kind && (role == "" || e.Role == role) {
			out = append(out, e.Text)
		}
	}
	return out
}

func count(r parsertest.Result, kind streaming.Kind) int { return len(r.Of(kind)) }

func TestParse(t *testing.T) {
	cases := []struct {
		name  string
		in    string
		check func(t *testing.T, r parsertest.Result)
	}{
		{
			name: "partial text snapshots are shown once",
			in: lines(
				`{"ts":1,"type":"say","say":"text","text":"do it"}`,
				`{"ts":2,"type":"say","say":"api_req_started","text":"{}"}`,
				`{"ts":3,"type":"say","say":"text","text":"Hel","partial":true}`,
				`{"ts":3,"type":"say","say":"text","text":"Hello, wor","partial":true}`,
				`{"ts":3,"type":"say","say":"text","text":"Hello, world.","partial":false}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				got := strings.Join(texts(r, streaming.KindTextDelta, streaming.RoleAssistant), "")
				if got != "Hello, world." {
					t.Errorf("assistant text %q", got)
				}
				if r.Stats.Revisions != 0 {
					t.Errorf("revisions %d", r.Stats.Revisions)
				}
			},
		},
		{
			name: "first say text is the prompt echo",
			in: lines(
				`{"ts":1,"type":"say","say":"text","text":"write tests"}`,
				`{"ts":2,"type":"say","say":"text","text":"Writing them."}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if got := texts(r, streaming.KindTextDelta, streaming.RoleUser); !reflect.DeepEqual(got, []string{"write tests"}) {
					t.Errorf("user texts %q", got)
				}
				if got := texts(r, streaming.KindTextDelta, streaming.RoleAssistant); !reflect.DeepEqual(got, []string{"Writing them."}) {
					t.Errorf("assistant texts %q", got)
				}
			},
		},
		{
			name: "after say task the first say text is the agent's",
			in: lines(
				`{"ts":1,"type":"say","say":"task","text":"write tests"}`,
				`{"ts":2,"type":"say","say":"text","text":"Writing them."}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if got := texts(r, streaming.KindTextDelta, streaming.RoleAssistant); !reflect.DeepEqual(got, []string{"Writing them."}) {
					t.Errorf("assistant texts %q", got)
				}
			},
		},
		{
			name: "api_req_started placeholder then cost, counted once",
			in: lines(
				`{"timestamp":10,"source":"extension","type":"say","say":"api_req_started","metadata":{"apiProtocol":"openai"}}`,
				`{"timestamp":10,"source":"extension","type":"say","say":"api_req_started","metadata":{"apiProtocol":"openai","tokensIn":1234,"tokensOut":300,"cost":0.0123}}`,
				`{"timestamp":10,"source":"extension","type":"say","say":"api_req_started","metadata":{"apiProtocol":"openai","tokensIn":1234,"tokensOut":300,"cost":0.0123,"usageMissing":false}}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				st := texts(r, streaming.KindStatus, "")
				want := []string{"API request started", "API request: $0.0123, 1.2k in / 300 out"}
				if !reflect.DeepEqual(st, want) {
					t.Errorf("status %q, want %q", st, want)
				}
				us := r.Of(streaming.KindUsage)
				if len(us) != 1 || us[0].Usage.InputTokens != 1234 || us[0].Usage.CostUSD != 0.0123 {
					t.Errorf("usage events %+v", us)
				}
			},
		},
		{
			name: "api_req_started failed and cancelled",
			in: lines(
				`{"ts":1,"type":"say","say":"api_req_started","text":"{\"streamingFailedMessage\":\"socket hang up\"}"}`,
				`{"ts":2,"type":"say","say":"api_req_started","text":"{\"cancelReason\":\"user_cancelled\"}"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				errs := r.Of(streaming.KindError)
				if len(errs) != 1 || errs[0].Text != "API request failed: socket hang up" || errs[0].Fatal || errs[0].Level != streaming.LevelWarning {
					t.Errorf("errors %+v", errs)
				}
				st := r.Of(streaming.KindStatus)
				if len(st) != 1 || st[0].Text != "API request cancelled (user_cancelled)" || st[0].Level != streaming.LevelWarning {
					t.Errorf("status %+v", st)
				}
				if count(r, streaming.KindUsage) != 0 {
					t.Error("usage for a request without tokens")
				}
			},
		},
		{
			name: "completion_result is the answer; HAS_CHANGES stripped",
			in: lines(
				`{"ts":1,"type":"say","say":"text","text":"go"}`,
				`{"ts":2,"type":"say","say":"completion_result","text":"All done.HAS_CHANGES"}`,
				`{"ts":3,"type":"ask","ask":"completion_result","text":""}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if r.Outcome != streaming.Success || r.Answer != "All done." {
					t.Errorf("outcome %s answer %q", r.Outcome, r.Answer)
				}
				if n := count(r, streaming.KindResult); n != 1 {
					t.Errorf("%d results", n)
				}
				if got := r.Text(streaming.KindTextDelta); strings.Count(got, "All done.") != 1 || strings.Contains(got, "HAS_CHANGES") {
					t.Errorf("text %q", got)
				}
			},
		},
		{
			name: "ask completion_result alone gives the result with its text",
			in: lines(
				`{"timestamp":1,"source":"extension","type":"say","say":"text","content":"go"}`,
				`{"timestamp":2,"source":"extension","type":"ask","ask":"completion_result","content":"Task completed","isAnswered":true}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if r.Outcome != streaming.Success || r.Answer != "Task completed" {
					t.Errorf("outcome %s answer %q", r.Outcome, r.Answer)
				}
				if got := r.Text(streaming.KindTextDelta); strings.Count(got, "Task completed") != 1 {
					t.Errorf("text %q", got)
				}
			},
		},
		{
			name: "a completion without its idle ask still ends the run",
			in: lines(
				`{"ts":1,"type":"say","say":"text","text":"go"}`,
				`{"ts":2,"type":"say","say":"completion_result","text":"Done"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if r.Outcome != streaming.Success || r.Answer != "Done" {
					t.Errorf("outcome %s answer %q", r.Outcome, r.Answer)
				}
			},
		},
		{
			name: "no completion: incomplete, no result synthesized",
			in: lines(
				`{"ts":1,"type":"say","say":"text","text":"go"}`,
				`{"ts":2,"type":"say","say":"text","text":"Working on it."}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if r.Outcome != streaming.Incomplete || count(r, streaming.KindResult) != 0 {
					t.Errorf("outcome %s, %d results", r.Outcome, count(r, streaming.KindResult))
				}
			},
		},
		{
			name: "api_req_failed fails the run",
			in: lines(
				`{"ts":1,"type":"say","say":"text","text":"go"}`,
				`{"ts":2,"type":"ask","ask":"api_req_failed","text":"{\"message\":\"401 Unauthorized\"}"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if r.Outcome != streaming.Failure || r.Reason != "api_req_failed: 401 Unauthorized" {
					t.Errorf("outcome %s reason %q", r.Outcome, r.Reason)
				}
				if errs := r.Of(streaming.KindError); len(errs) != 1 || !errs[0].Fatal {
					t.Errorf("errors %+v", errs)
				}
			},
		},
		{
			name: "mistake_limit_reached fails the run",
			in: lines(
				`{"ts":1,"type":"ask","ask":"mistake_limit_reached","text":"Too many mistakes"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if r.Outcome != streaming.Failure || r.Reason != "mistake_limit_reached: Too many mistakes" {
					t.Errorf("outcome %s reason %q", r.Outcome, r.Reason)
				}
			},
		},
		{
			name: "checkpoint with the same hash shown once",
			in: lines(
				`{"ts":1,"type":"say","say":"checkpoint_saved","text":"abc123"}`,
				`{"ts":2,"type":"say","say":"text","text":"x"}`,
				`{"ts":3,"type":"say","say":"checkpoint_saved","text":"abc123"}`,
				`{"ts":4,"type":"say","say":"checkpoint_created","lastCheckpointHash":"abc123"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if got := texts(r, streaming.KindStatus, ""); !reflect.DeepEqual(got, []string{"checkpoint abc123"}) {
					t.Errorf("status %q", got)
				}
			},
		},
		{
			name: "byte-identical re-print is dropped, answered ask is one call",
			in: lines(
				`{"timestamp":5,"source":"extension","type":"ask","ask":"tool","metadata":{"tool":"readFile","path":"a.go"}}`,
				`{"timestamp":5,"source":"extension","type":"ask","ask":"tool","metadata":{"tool":"readFile","path":"a.go"},"isAnswered":true}`,
				`{"timestamp":5,"source":"extension","type":"ask","ask":"tool","metadata":{"tool":"readFile","path":"a.go"},"isAnswered":true}`,
				`{"timestamp":6,"source":"extension","type":"say","say":"text","content":"ok"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				starts := r.Of(streaming.KindToolStart)
				if len(starts) != 1 || starts[0].Name != "readFile" || starts[0].Title != "a.go" {
					t.Errorf("starts %+v", starts)
				}
				if ends := r.Of(streaming.KindToolEnd); len(ends) != 1 || ends[0].Status != streaming.ToolOK {
					t.Errorf("ends %+v", ends)
				}
				if r.Stats.Duplicates != 0 {
					t.Errorf("duplicates reached the session: %d", r.Stats.Duplicates)
				}
			},
		},
		{
			name: "command output: chunks sharing a ts are appended, snapshots grow",
			in: lines(
				`{"ts":1,"type":"say","say":"command","text":"make"}`,
				`{"ts":2,"type":"ask","ask":"command_output","text":"a"}`,
				`{"ts":2,"type":"ask","ask":"command_output","text":"b"}`,
				`{"ts":3,"type":"say","say":"command_output","text":"c","partial":true}`,
				`{"ts":3,"type":"say","say":"command_output","text":"cd","partial":true}`,
				`{"ts":3,"type":"say","say":"command_output","text":"c","partial":true}`,
				`{"ts":4,"type":"say","say":"api_req_started","text":"{}"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				ends := r.Of(streaming.KindToolEnd)
				if len(ends) != 1 || ends[0].Output != "a\nb\ncd" || ends[0].Name != "execute_command" {
					t.Errorf("ends %+v", ends)
				}
			},
		},
		{
			name: "command approval marker stripped",
			in: lines(
				`{"ts":1,"type":"ask","ask":"command","text":"rm -rf build REQ_APP"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				s := r.Of(streaming.KindToolStart)
				if len(s) != 1 || s[0].Title != "rm -rf build" || s[0].Input != `{"command":"rm -rf build"}` {
					t.Errorf("starts %+v", s)
				}
				if e := r.Of(streaming.KindToolEnd); len(e) != 1 || e[0].Status != streaming.ToolIncomplete {
					t.Errorf("an unanswered command at EOF should be incomplete: %+v", e)
				}
			},
		},
		{
			name: "say error after a tool fails it",
			in: lines(
				`{"ts":1,"type":"say","say":"tool","text":"{\"tool\":\"readFile\",\"path\":\"x\"}"}`,
				`{"ts":2,"type":"say","say":"error","text":"Error reading file"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if e := r.Of(streaming.KindToolEnd); len(e) != 1 || e[0].Status != streaming.ToolError {
					t.Errorf("ends %+v", e)
				}
			},
		},
		{
			name: "feedback after a completion begins a new run",
			in: lines(
				`{"ts":1,"type":"say","say":"text","text":"go"}`,
				`{"ts":2,"type":"say","say":"completion_result","text":"First"}`,
				`{"ts":3,"type":"ask","ask":"completion_result","text":""}`,
				`{"ts":4,"type":"say","say":"user_feedback","text":"more"}`,
				`{"ts":5,"type":"say","say":"text","text":"On it."}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if r.Stats.Runs != 2 || r.Outcome != streaming.Incomplete {
					t.Errorf("runs %d outcome %s", r.Stats.Runs, r.Outcome)
				}
			},
		},
		{
			name: "messageId is the identity",
			in: lines(
				`{"messageId":"ext-1","timestamp":1,"source":"extension","type":"say","say":"reasoning","status":"partial","content":"Think"}`,
				`{"messageId":"ext-1","timestamp":2,"source":"extension","type":"say","say":"reasoning","status":"complete","content":"Thinking done"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if got := r.Text(streaming.KindThinkingDelta); got != "Thinking done" {
					t.Errorf("thinking %q", got)
				}
			},
		},
		{
			name: "Kilo metadata holds text that was JSON",
			in: lines(
				`{"timestamp":1,"source":"extension","type":"say","say":"text","content":"print a list"}`,
				`{"timestamp":2,"source":"extension","type":"say","say":"text","metadata":[1,2,3]}`,
				`{"timestamp":3,"source":"extension","type":"say","say":"text","content":"plain","metadata":{"kiloCode":{"x":1}}}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				got := texts(r, streaming.KindTextDelta, streaming.RoleAssistant)
				if !reflect.DeepEqual(got, []string{"[1,2,3]", "plain"}) {
					t.Errorf("assistant texts %q", got)
				}
			},
		},
		{
			name: "escape garbage before the JSON",
			in:   "\x1b]0;Kilo Code - tmp\x07\x1b[2J{\"timestamp\":1,\"source\":\"extension\",\"type\":\"say\",\"say\":\"text\",\"content\":\"hi\"}\n",
			check: func(t *testing.T, r parsertest.Result) {
				if got := texts(r, streaming.KindTextDelta, streaming.RoleUser); !reflect.DeepEqual(got, []string{"hi"}) {
					t.Errorf("user texts %q (kinds %v)", got, r.Kinds())
				}
			},
		},
		{
			name: "followup question with options",
			in: lines(
				`{"ts":1,"type":"say","say":"task","text":"go"}`,
				`{"ts":2,"type":"ask","ask":"followup","text":"{\"question\":\"Which one?\",\"options\":[\"A\",\"B\"]}","partial":true}`,
				`{"ts":2,"type":"ask","ask":"followup","text":"{\"question\":\"Which one?\",\"options\":[\"A\",\"B\"]}","partial":false}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				got := texts(r, streaming.KindTextDelta, streaming.RoleAssistant)
				if !reflect.DeepEqual(got, []string{"Which one?\n\n- A\n- B"}) {
					t.Errorf("assistant texts %q", got)
				}
			},
		},
		{
			name: "task_progress becomes a plan, repeated only when changed",
			in: lines(
				`{"ts":1,"type":"say","say":"task_progress","text":"- [x] read\n- [ ] write"}`,
				`{"ts":2,"type":"say","say":"task_progress","text":"- [x] read\n- [ ] write"}`,
				`{"ts":3,"type":"say","say":"task_progress","text":"- [x] read\n- [x] write"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				ps := r.Of(streaming.KindPlan)
				if len(ps) != 2 || ps[1].Entries[1].Status != "completed" || ps[0].Entries[0].Text != "read" {
					t.Errorf("plans %+v", ps)
				}
			},
		},
		{
			name: "Ink JSON view lines",
			in: lines(
				`{"type":"message","timestamp":1,"role":"user","messageType":"say","say":"text","text":"go"}`,
				`{"type":"message","timestamp":2,"role":"assistant","messageType":"say","say":"text","text":"Done it."}`,
				`{"type":"completion","status":"error","timestamp":3}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if got := texts(r, streaming.KindTextDelta, streaming.RoleAssistant); !reflect.DeepEqual(got, []string{"Done it."}) {
					t.Errorf("assistant texts %q", got)
				}
				if r.Outcome != streaming.Failure {
					t.Errorf("outcome %s", r.Outcome)
				}
			},
		},
		{
			name: "unknown subtypes and lines are kept",
			in: lines(
				`{"ts":1,"type":"say","say":"brand_new","text":"x"}`,
				`{"ts":2,"type":"say","say":"brand_new","text":"y","partial":true}`,
				`{"type":"whatever"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				u := r.Of(streaming.KindUnknown)
				if len(u) != 2 || u[0].Type != "say:brand_new" || u[1].Type != "whatever" {
					t.Errorf("unknown %+v", u)
				}
			},
		},
		{
			name: "images are summarised",
			in: lines(
				`{"ts":1,"type":"say","say":"user_feedback","text":"look","images":["data:image/png;base64,AAAAAAAA"]}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if got := strings.Join(texts(r, streaming.KindTextDelta, streaming.RoleUser), ""); got != "look\n‹image/png 6 B›" {
					t.Errorf("text %q", got)
				}
			},
		},
		{
			name: "SDK CLI text chunks with accumulated text",
			in: lines(
				`{"ts":"2026-01-01T00:00:00Z","type":"agent_event","event":{"type":"content_start","contentType":"text","text":"Hel","accumulated":"Hel"}}`,
				`{"ts":"2026-01-01T00:00:01Z","type":"agent_event","event":{"type":"content_start","contentType":"text","text":"lo","accumulated":"Hello"}}`,
				`{"ts":"2026-01-01T00:00:02Z","type":"agent_event","event":{"type":"content_end","contentType":"text","text":"Hello"}}`,
				`{"ts":"2026-01-01T00:00:03Z","type":"agent_event","event":{"type":"done","reason":"completed","text":"Hello","iterations":1}}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if got := r.Text(streaming.KindTextDelta); got != "Hello" {
					t.Errorf("text %q", got)
				}
				if r.Outcome != streaming.Success {
					t.Errorf("done without run_result: outcome %s", r.Outcome)
				}
			},
		},
		{
			name: "SDK CLI failed run",
			in: lines(
				`{"ts":"2026-01-01T00:00:00Z","type":"run_result","finishReason":"error","iterations":1,"usage":{"inputTokens":1,"outputTokens":0},"durationMs":10,"text":"API key invalid"}`,
			),
			check: func(t *testing.T, r parsertest.Result) {
				if r.Outcome != streaming.Failure || r.Reason != "error: API key invalid" {
					t.Errorf("outcome %s reason %q", r.Outcome, r.Reason)
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := parsertest.Run(agents, c.in).Check(t)
			c.check(t, r)
		})
	}
}

// TestCommandOutputRepeatsShown: tool output is never "repaired" (a
// command that prints the same line four times shows it four
// times, and a chunk that repeats the output so far is shown as it came.
func TestCommandOutputRepeatsShown(t *testing.T) {
	const wait = "waiting for postgres on localhost:5432...\n"
	r := parsertest.Run(agents, lines(
		`{"ts":1,"type":"ask","ask":"command","text":"./wait-for-db"}`,
		`{"ts":2,"type":"ask","ask":"command_output","text":"waiting for postgres on localhost:5432...\n"}`,
		`{"ts":3,"type":"ask","ask":"command_output","text":"waiting for postgres on localhost:5432...\n"}`,
		`{"ts":4,"type":"ask","ask":"command_output","text":"waiting for postgres on localhost:5432...\n"}`,
		`{"ts":5,"type":"ask","ask":"command_output","text":"waiting for postgres on localhost:5432...\n"}`,
		`{"ts":6,"type":"say","say":"command_output","text":"waiting for postgres on localhost:5432...\nwaiting for postgres on localhost:5432...\nready\n"}`,
		`{"ts":7,"type":"say","say":"api_req_started","text":"{}"}`,
	)).Check(t)
	want := strings.Repeat(wait, 6) + "ready\n"
	if got := r.Text(streaming.KindToolOutputDelta); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	ends := r.Of(streaming.KindToolEnd)
	if len(ends) != 1 || ends[0].Output != want {
		t.Errorf("ends %+v", ends)
	}
	if r.Stats.SnapshotAsDelta != 0 {
		t.Errorf("%d repairs", r.Stats.SnapshotAsDelta)
	}
}
