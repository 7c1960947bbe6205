package codebuddy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/codebuddy"
	"github.com/agentfmt/agentfmt/streaming"
)

const ses = "s1"

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// array is the json output as CodeBuddy prints it: one array, pretty-printed.
func array(items ...string) string { return "[\n  " + strings.Join(items, ",\n  ") + "\n]\n" }

func userItem(parts ...string) string {
	var ps []string
	for _, p := range parts {
		ps = append(ps, fmt.Sprintf(`{"type":"input_text","text":%q}`, p))
	}
	return fmt.Sprintf(`{"type":"message","role":"user","content":[%s],"providerData":{"agent":"cli"},"id":"u1","sessionId":%q,"timestamp":1773909452616}`, strings.Join(ps, ","), ses)
}

func reasoning(id, msg, text string) string {
	return fmt.Sprintf(`{"providerData":{"messageId":%q},"type":"reasoning","content":[],"rawContent":[{"type":"reasoning_text","text":%q}],"id":%q,"sessionId":%q}`, msg, text, id, ses)
}

func answer(id, msg, text string) string {
	return fmt.Sprintf(`{"id":%q,"type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":%q}],"providerData":{"messageId":%q,"usage":{"inputTokens":100,"outputTokens":5,"inputTokensDetails":[{"cached_tokens":40}]}},"sessionId":%q}`, id, text, msg, ses)
}

func result(body string) string {
	return fmt.Sprintf(`{"type":"result","session_id":%q,"num_turns":3,"duration_ms":6747,"total_cost_usd":0,"usage":{"input_tokens":100,"output_tokens":5,"cache_read_input_tokens":null},%s,"__timestamp":"2026-03-19T08:37:39.392Z"}`, ses, body)
}

func run(t *testing.T, in string) parsertest.Result {
	t.Helper()
	return parsertest.Run(agents, in).Check(t)
}

func TestOutcome(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		outcome streaming.Outcome
		reason  string
	}{
		{"success", array(userItem("<user_query>hi</user_query>"), answer("a1", "m1", "OK\n"), result(`"subtype":"success","is_error":false,"result":"OK\n"`)),
			streaming.Success, ""},
		{"is_error", array(userItem("x"), result(`"subtype":"success","is_error":true,"result":"API Error: 401"`)), streaming.Failure, "API Error: 401"},
		{"error subtype with errors", array(result(`"subtype":"error_max_turns","is_error":false,"errors":["max turns reached"]`)), streaming.Failure, "max turns reached"},
		{"error subtype alone", array(result(`"subtype":"error_during_execution","is_error":true`)), streaming.Failure, "error_during_execution"},
		{"no result", array(userItem("x"), answer("a1", "m1", "half")), streaming.Incomplete, "the stream ended before the run finished"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.in)
			if r.Outcome != c.outcome || r.Reason != c.reason {
				t.Errorf("outcome %v %q, want %v %q", r.Outcome, r.Reason, c.outcome, c.reason)
			}
		})
	}
}

// The user's ask is the last <user_query>, without the system reminders
// (and a system message is not the assistant's);
// the reasoning and the answer of one model call are blocks of one
// message; the result's text repeats the answer and is not shown again.
func TestItems(t *testing.T) {
	r := run(t, array(
		userItem("<system-reminder>memory: be brief</system-reminder>", "<system-reminder>tasks: none</system-reminder>", "<user_query>Reply OK</user_query>"),
		`{"type":"file-history-snapshot","id":"f1","timestamp":1,"isSnapshotUpdate":false,"snapshot":{"messageId":"u1","trackedFileBackups":{}}}`,
		`{"type":"message","role":"system","content":[{"type":"text","text":"You are CodeBuddy."}],"id":"sys1","sessionId":"s1"}`,
		reasoning("r1", "m1", "They want OK."),
		answer("a1", "m1", "OK\n"),
		`{"type":"ai-title","aiTitle":"Reply OK","sessionId":"s1"}`,
		result(`"subtype":"success","is_error":false,"result":"OK\n"`)))
	var user, msgs []string
	for _, e := range r.Events {
		if e.Kind == streaming.KindTextDelta && e.Role == streaming.RoleUser {
			user = append(user, e.Text)
		}
		if e.Kind == streaming.KindTextDelta || e.Kind == streaming.KindThinkingDelta {
			msgs = append(msgs, e.Message)
		}
	}
	if strings.Join(user, "|") != "Reply OK" {
		t.Errorf("user text %q", user)
	}
	if len(msgs) != 3 || msgs[1] != "m1" || msgs[2] != "m1" {
		t.Errorf("messages of the blocks: %q", msgs)
	}
	if got := r.Text(streaming.KindTextDelta); got != "OK\n" {
		t.Errorf("text %q (the answer once)", got)
	}
	if r.Answer != "OK\n" || len(r.Of(streaming.KindUnknown)) != 0 {
		t.Errorf("answer %q, %d unknown", r.Answer, len(r.Of(streaming.KindUnknown)))
	}
	res := r.Of(streaming.KindResult)[0]
	if res.DurationMS != 6747 || res.Turns != 3 || res.Usage == nil || res.Usage.InputTokens != 100 || res.Usage.HasCost {
		t.Errorf("result %+v usage %+v", res, res.Usage)
	}
	if u := r.Of(streaming.KindUsage); len(u) != 1 || u[0].Usage.InputTokens != 60 || u[0].Usage.CacheReadTokens != 40 {
		t.Errorf("usage events %+v", u)
	}
}

// userText is the text of the user messages of r.
func userText(r parsertest.Result) string {
	var b strings.Builder
	for _, e := range r.Of(streaming.KindTextDelta) {
		if e.Role == streaming.RoleUser {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

func TestUserText(t *testing.T) {
	cases := []struct {
		parts []string
		want  string
	}{
		{[]string{"<system-reminder>a</system-reminder>", "<user_query>first</user_query>", "<user_query>second</user_query>"}, "second"},
		{[]string{"<system-reminder>\nctx\n</system-reminder>plain ask"}, "plain ask"},
		{[]string{"just text"}, "just text"},
	}
	for _, c := range cases {
		r := run(t, array(userItem(c.parts...)))
		if got := userText(r); got != c.want {
			t.Errorf("%q: %q, want %q", c.parts, got, c.want)
		}
	}
	r := run(t, array(userItem("<cb_summary>earlier work</cb_summary>")))
	if len(r.Of(streaming.KindTextDelta)) != 0 || len(r.Of(streaming.KindStatus)) != 1 {
		t.Errorf("a compaction checkpoint shown as a prompt: %+v", r.Events)
	}
}

// function_call and function_call_result are one call by callId; their
// arguments are a JSON string; a failed status fails the call.
func TestTools(t *testing.T) {
	r := run(t, array(
		`{"type":"function_call","name":"Bash","callId":"c1","arguments":"{\"command\":\"ls\"}","sessionId":"s1"}`,
		`{"type":"function_call","name":"Read","callId":"c2","arguments":{"file_path":"a.go"},"sessionId":"s1"}`,
		`{"type":"function_call_result","name":"Bash","callId":"c1","status":"completed","output":{"type":"text","text":"a.go\n"},"sessionId":"s1"}`,
		`{"type":"function_call_result","name":"Read","callId":"c2","status":"failed","output":"no such file","sessionId":"s1"}`,
		`{"type":"function_call_result","name":"Grep","callId":"c3","status":"success","output":[{"type":"input_text","text":"x"}],"sessionId":"s1"}`))
	starts, ends := r.Of(streaming.KindToolStart), r.Of(streaming.KindToolEnd)
	if len(starts) != 3 || starts[0].Input != `{"command":"ls"}` || starts[1].Input != `{"file_path":"a.go"}` || starts[0].Subject != "ls" {
		t.Errorf("starts %+v", starts)
	}
	if len(ends) != 3 || ends[0].Output != "a.go\n" || ends[0].Status != streaming.ToolOK ||
		ends[1].Status != streaming.ToolError || ends[1].Output != "no such file" || ends[2].Output != "x" {
		t.Errorf("ends %+v", ends)
	}
}

// Claude-shaped lines (stream-json) go to the Claude parser, and log lines
// are status lines.
func TestStreamJSON(t *testing.T) {
	r := run(t, lines(
		`{"type":"log","log":{"level":"warn","message":"MCP server x failed"}}`,
		`{"type":"system","subtype":"init","session_id":"s1","model":"m","tools":[]}`,
		`{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"Done."}]},"parent_tool_use_id":null,"session_id":"s1"}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"Done.","session_id":"s1","num_turns":1}`))
	st := r.Of(streaming.KindStatus)
	if len(st) != 1 || st[0].Level != streaming.LevelWarning || st[0].Text != "MCP server x failed" {
		t.Errorf("status %+v", st)
	}
	if r.Outcome != streaming.Success || r.Answer != "Done." || len(r.Of(streaming.KindUnknown)) != 0 {
		t.Errorf("%v %q, %d unknown", r.Outcome, r.Answer, len(r.Of(streaming.KindUnknown)))
	}
}

func TestDetect(t *testing.T) {
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		{userItem("hi"), parsers.Decisive},
		{reasoning("r", "m", "x"), parsers.Decisive},
		{`{"type":"function_call","name":"Bash","callId":"c1","arguments":"{}"}`, parsers.Decisive},
		{result(`"subtype":"success","is_error":false,"result":"x"`), parsers.Decisive},
		{`{"type":"file-history-snapshot","id":"f1","snapshot":{"messageId":"u1"}}`, parsers.Maybe},
		{`{"type":"log","log":{"level":"info","message":"x"}}`, parsers.Maybe},
		// Other agents' lines.
		{`{"type":"message","timestamp":"2025-10-29T10:37:08.885Z","role":"assistant","content":"x","delta":true}`, parsers.No},
		{`{"type":"reasoning","timestamp":1,"sessionID":"ses_1","part":{"type":"reasoning","text":"x"}}`, parsers.No},
		{`{"type":"result","subtype":"success","session_id":"s","stats":{}}`, parsers.No},
		{`{"type":"result","status":"success","stats":{}}`, parsers.No},
		// Claude's shapes, which CodeBuddy's stream-json writes: as sure as
		// Claude's detector, which comes first in the registry and keeps
		// them when it is as sure.
		{`{"type":"system","subtype":"init","session_id":"s","cwd":"/","model":"gpt-5","permissionMode":"default","apiKeySource":"env"}`, parsers.Maybe},
		{`{"type":"response_item","payload":{"type":"message","role":"assistant","content":[]}}`, parsers.No},
		{`{"payloads":[],"meta":{"durationMs":1}}`, parsers.No},
	}
	for _, c := range cases {
		if got := codebuddy.Agent.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}
