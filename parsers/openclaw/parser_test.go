package openclaw_test

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/openclaw"
	"github.com/agentfmt/agentfmt/streaming"
)

const meta = `"meta":{"durationMs":6115,"agentMeta":{"sessionId":"s1","provider":"openrouter","model":"anthropic/claude-opus-4.7","usage":{"input":100,"output":6,"cacheWrite":50}},"aborted":false,"finalPromptText":"say hi","finalAssistantVisibleText":"visible","stopReason":"stop"`

func doc(payloads, metaExtra string) string {
	return `{"payloads":[` + payloads + `],` + meta + metaExtra + `}}`
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
		answer  string
	}{
		{"payload", doc(`{"text":"hi","mediaUrl":null}`, ""), streaming.Success, "", "hi"},
		{"two payloads are one reply", doc(`{"text":"one"},{"text":"two","mediaUrls":["https://x/a.png"]}`, ""), streaming.Success, "", "one\n\ntwo\n\nMEDIA:https://x/a.png"},
		{"no payload: the visible text", doc(``, ""), streaming.Success, "", "visible"},
		{"aborted", strings.Replace(doc(`{"text":"part"}`, ""), `"aborted":false`, `"aborted":true`, 1), streaming.Failure, "aborted", ""},
		{"meta.error", doc(``, `,"error":{"kind":"context_overflow","message":"prompt too large"}`), streaming.Failure, "context_overflow: prompt too large", ""},
		{"an error payload", doc(`{"text":"Rate limited","isError":true}`, ""), streaming.Failure, "Rate limited", ""},
		{"gateway ok", `{"runId":"r1","status":"ok","summary":"completed","result":` + doc(`{"text":"hi"}`, "") + `}`, streaming.Success, "", "hi"},
		{"gateway error", `{"runId":"r1","status":"error","summary":"failed","result":` + doc(``, "") + `}`, streaming.Failure, "gateway run error", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.in+"\n")
			if r.Outcome != c.outcome || r.Reason != c.reason {
				t.Errorf("outcome %v %q, want %v %q", r.Outcome, r.Reason, c.outcome, c.reason)
			}
			if r.Answer != c.answer && c.outcome == streaming.Success {
				t.Errorf("answer %q, want %q", r.Answer, c.answer)
			}
		})
	}
}

// The document is one run: the session, model and directory from meta,
// the prompt, failed fallbacks as warnings, the figures in the result;
// a pretty-printed document after log lines reads the same.
func TestRun(t *testing.T) {
	d := doc(`{"text":"hi","mediaUrl":null}`, `,"systemPromptReport":{"workspaceDir":"/w"},"executionTrace":{"winnerProvider":"anthropic","winnerModel":"claude-sonnet-4-5","fallbackUsed":true,"attempts":[{"provider":"openrouter","model":"anthropic/claude-opus-4.7","result":"error","reason":"rate_limit"},{"provider":"anthropic","model":"claude-sonnet-4-5","result":"success"}]}`)
	pretty := strings.NewReplacer(`{"`, "{\n  \"", `,"`, ",\n  \"").Replace(d)
	for _, in := range []string{d + "\n", "Gateway agent failed; falling back to embedded\n" + pretty + "\n"} {
		r := run(t, in)
		ss := r.Of(streaming.KindSessionStart)
		if len(ss) != 1 || ss[0].SessionID != "s1" || ss[0].Model != "anthropic/claude-sonnet-4-5" || ss[0].CWD != "/w" {
			t.Errorf("session.start %+v", ss)
		}
		var user string
		for _, e := range r.Of(streaming.KindTextDelta) {
			if e.Role == streaming.RoleUser {
				user += e.Text
			}
		}
		st := r.Of(streaming.KindStatus)
		if user != "say hi" || len(st) != 1 || st[0].Text != "openrouter/anthropic/claude-opus-4.7: error (rate_limit)" {
			t.Errorf("prompt %q, status %+v", user, st)
		}
		res := r.Of(streaming.KindResult)
		if len(res) != 1 || res[0].DurationMS != 6115 || res[0].Usage == nil || res[0].Usage.InputTokens != 100 || res[0].Usage.CacheWriteTokens != 50 {
			t.Errorf("result %+v", res)
		}
	}
}

func TestDetect(t *testing.T) {
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		{doc(`{"text":"hi"}`, ""), parsers.Decisive},
		{`{"runId":"r","status":"ok","result":{"payloads":[],"meta":{}}}`, parsers.Decisive},
		{`{"payloads":[{"text":"x"}]}`, parsers.Maybe},
		// Other agents' documents.
		{`{"session_id":"s","response":"hi","stats":{"models":{}}}`, parsers.No},
		{`{"type":"result","payloads":[],"meta":{"durationMs":1}}`, parsers.No},
		{`{"type":"session","version":3,"id":"x","cwd":"/"}`, parsers.No},
		{`{"session":{"id":"x"},"items":[]}`, parsers.No},
	}
	for _, c := range cases {
		if got := openclaw.Agent.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}
