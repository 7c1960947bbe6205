package all_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// line is a repeated payload: long enough (43 bytes) that the old rule
// took its second copy for a snapshot sent as a delta.
const line = "waiting for postgres on localhost:5432...\n"

func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// rep makes n lines from a template with %s for the quoted payload and
// %d for the copy's number.
func rep(n int, tmpl string, payload string) []string {
	var out []string
	for i := 1; i <= n; i++ {
		t := strings.ReplaceAll(tmpl, "%s", payload)
		out = append(out, strings.ReplaceAll(t, "%d", fmt.Sprint(i)))
	}
	return out
}

func join(parts ...[]string) string {
	var all []string
	for _, p := range parts {
		all = append(all, p...)
	}
	return strings.Join(all, "\n") + "\n"
}

// TestIdenticalDeltasShownEachTime: N identical deltas are N pieces of
// text (an exact repeat is genuine; tool output is never
// repaired), for every parser with deltas, and none counts as a repair.
func TestIdenticalDeltasShownEachTime(t *testing.T) {
	const n = 4
	p := q(line)
	cases := map[string]struct {
		log   string
		kinds []streaming.Kind
	}{
		"claude": {join(
			[]string{`{"type":"system","subtype":"init","session_id":"s1","model":"m","tools":[]}`,
				`{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_1","role":"assistant","content":[]}}}`,
				`{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}}`},
			rep(n, `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":%s}}}`, p),
			[]string{`{"type":"stream_event","event":{"type":"content_block_stop","index":0}}`,
				`{"type":"stream_event","event":{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}}`},
			rep(n, `{"type":"stream_event","event":{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":%s}}}`, p),
			[]string{`{"type":"stream_event","event":{"type":"content_block_stop","index":1}}`,
				`{"type":"stream_event","event":{"type":"message_stop"}}`},
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta}},
		"codex": {join(
			[]string{`{"prompt":"wait for the db"}`, `{"id":"0","msg":{"type":"task_started"}}`},
			rep(n, `{"id":"0","msg":{"type":"agent_reasoning_delta","delta":%s}}`, p),
			[]string{`{"id":"0","msg":{"type":"exec_command_begin","call_id":"c1","command":["bash","-lc","./wait"],"cwd":"/"}}`},
			rep(n, `{"id":"0","msg":{"type":"exec_command_output_delta","call_id":"c1","stream":"stdout","chunk":%s}}`, q(base64.StdEncoding.EncodeToString([]byte(line)))),
			[]string{`{"id":"0","msg":{"type":"exec_command_end","call_id":"c1","exit_code":0}}`},
			rep(n, `{"id":"0","msg":{"type":"agent_message_delta","delta":%s}}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta, streaming.KindToolOutputDelta}},
		"gemini": {join(
			[]string{`{"type":"init","timestamp":"2026-01-01T00:00:00Z","session_id":"s1","model":"gemini-2.5-pro"}`},
			rep(n, `{"type":"message","timestamp":"2026-01-01T00:00:0%dZ","role":"assistant","content":%s,"delta":true}`, p),
		), []streaming.Kind{streaming.KindTextDelta}},
		"opencode": {join(
			[]string{`{"type":"step_start","timestamp":1,"sessionID":"ses_1","part":{"id":"prt_0","messageID":"msg_1","sessionID":"ses_1","type":"step-start"}}`},
			rep(n, `{"type":"reasoning","timestamp":2,"sessionID":"ses_1","part":{"id":"prt_r%d","messageID":"msg_1","sessionID":"ses_1","type":"reasoning","text":%s}}`, p),
			rep(n, `{"type":"text","timestamp":3,"sessionID":"ses_1","part":{"id":"prt_t%d","messageID":"msg_1","sessionID":"ses_1","type":"text","text":%s}}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta}},
		"cursor": {join(
			[]string{`{"type":"system","subtype":"init","apiKeySource":"env","cwd":"/","session_id":"s1","model":"gpt-5","permissionMode":"default"}`},
			rep(n, `{"type":"thinking","subtype":"delta","text":%s,"session_id":"s1","timestamp_ms":1770000000001}`, p),
			rep(n, `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":%s}]},"session_id":"s1","timestamp_ms":1770000000002}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta}},
		"acp": {join(
			[]string{`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"wait"}]}}`},
			rep(n, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":%s}}}}`, p),
			rep(n, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%s}}}}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta}},
		"cline": {join(
			[]string{`{"ts":1,"type":"say","say":"text","text":"wait for the db"}`,
				`{"ts":2,"type":"say","say":"api_req_started","text":"{}"}`},
			rep(n, `{"ts":1%d,"type":"say","say":"reasoning","text":%s}`, p),
			[]string{`{"ts":30,"type":"ask","ask":"command","text":"./wait"}`},
			rep(n, `{"ts":3%d,"type":"ask","ask":"command_output","text":%s}`, p),
			rep(n, `{"ts":4%d,"type":"say","say":"text","text":%s}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta, streaming.KindToolOutputDelta}},
		"copilot": {join(
			[]string{`{"type":"user.message","data":{"content":"wait for the db"},"id":"e1"}`,
				`{"type":"assistant.turn_start","data":{"turnId":"0"},"id":"e2"}`},
			rep(n, `{"type":"assistant.reasoning_delta","data":{"reasoningId":"r1","deltaContent":%s},"id":"e1%d"}`, p),
			[]string{`{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"bash","arguments":{"command":"./wait"}},"id":"e3"}`},
			rep(n, `{"type":"tool.execution_partial_result","data":{"toolCallId":"c1","partialOutput":%s},"id":"e2%d"}`, p),
			[]string{`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":true,"result":{"content":""}},"id":"e4"}`,
				`{"type":"assistant.message_start","data":{"messageId":"m1"},"id":"e5"}`},
			rep(n, `{"type":"assistant.message_delta","data":{"messageId":"m1","deltaContent":%s},"id":"e3%d"}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta, streaming.KindToolOutputDelta}},
		"antigravity": {join(
			[]string{`{"event":"init","conversation_id":"c","init":{"model":"m"}}`},
			rep(n, `{"event":"step_update","step_update":{"conversation_id":"c","step_index":1,"state":"ACTIVE","step_type":"agent_response","thinking_delta":%s}}`, p),
			rep(n, `{"event":"step_update","step_update":{"conversation_id":"c","step_index":1,"state":"ACTIVE","step_type":"agent_response","text_delta":%s}}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta}},
		"pi": {join(
			[]string{`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`,
				`{"type":"agent_start"}`, `{"type":"message_start","message":{"role":"assistant","content":[],"timestamp":1}}`},
			rep(n, `{"type":"message_update","usage":{},"assistantMessageEvent":{"type":"thinking_delta","contentIndex":0,"delta":%s}}`, p),
			rep(n, `{"type":"message_update","usage":{},"assistantMessageEvent":{"type":"text_delta","contentIndex":1,"delta":%s}}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta}},
		// CodeBuddy's json items are whole: the same text in n items is n
		// blocks.
		"codebuddy": {join(
			rep(n, `{"type":"reasoning","id":"r%d","rawContent":[{"type":"reasoning_text","text":%s}],"providerData":{"messageId":"m1"},"sessionId":"s1"}`, p),
			rep(n, `{"type":"message","role":"assistant","id":"a%d","content":[{"type":"output_text","text":%s}],"providerData":{"messageId":"m1"},"sessionId":"s1"}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta}},
		// OpenClaw's payloads: n block replies with the same text.
		"openclaw": {`{"payloads":[` + strings.Join(rep(n, `{"text":%s,"mediaUrl":null}`, p), ",") +
			`],"meta":{"durationMs":1,"agentMeta":{"sessionId":"s1"}}}` + "\n", []streaming.Kind{streaming.KindTextDelta}},
		// Droid's messages are whole: the same text in n messages.
		"droid": {join(
			[]string{`{"type":"system","subtype":"init","cwd":"/","session_id":"s1","tools":["Execute"],"model":"m"}`},
			rep(n, `{"type":"message","role":"assistant","id":"m%d","text":%s,"timestamp":1,"session_id":"s1"}`, p),
		), []streaming.Kind{streaming.KindTextDelta}},
		"grok": {join(
			rep(n, `{"type":"thought","data":%s}`, p),
			rep(n, `{"type":"text","data":%s}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta}},
		"goose": {join(
			rep(n, `{"type":"message","message":{"id":"c1","role":"assistant","created":1,"content":[{"type":"thinking","thinking":%s}]}}`, p),
			rep(n, `{"type":"message","message":{"id":"c1","role":"assistant","created":1,"content":[{"type":"text","text":%s}]}}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta}},
		// Kimi's messages are whole: the same text in n steps.
		"kimi": {join(
			rep(n, `{"role":"assistant","content":[{"type":"think","think":%s},{"type":"text","text":%s}]}`, p),
		), []streaming.Kind{streaming.KindTextDelta, streaming.KindThinkingDelta}},
	}
	for _, a := range contractAgents(t) {
		c, ok := cases[a.Name]
		if !ok {
			t.Errorf("no case for %s", a.Name)
			continue
		}
		t.Run(a.Name, func(t *testing.T) {
			r := parsertest.Run(all.Agents(), c.log).Check(t)
			for _, kind := range c.kinds {
				if got := strings.Count(r.Text(kind), line); got != n {
					t.Errorf("%s: the line shown %d times, want %d:\n%q", kind, got, n, r.Text(kind))
				}
			}
			if r.Stats.SnapshotAsDelta != 0 {
				t.Errorf("%d genuine deltas repaired", r.Stats.SnapshotAsDelta)
			}
		})
	}
}

// TestSnapshotAsDeltaStillRepaired: a real snapshot sent as a delta (the
// whole text so far and more) is still cut to its new end, and --strict
// fails on it with exit status 65.
func TestSnapshotAsDeltaStillRepaired(t *testing.T) {
	log := join(
		[]string{`{"type":"init","timestamp":"2026-01-01T00:00:00Z","session_id":"s1","model":"gemini-2.5-pro"}`},
		rep(1, `{"type":"message","timestamp":"2026-01-01T00:00:01Z","role":"assistant","content":%s,"delta":true}`, q(line)),
		rep(1, `{"type":"message","timestamp":"2026-01-01T00:00:02Z","role":"assistant","content":%s,"delta":true}`, q(line+"ready\n")),
	)
	r := parsertest.Run(all.Agents(), log).Check(t)
	if got := r.Text(streaming.KindTextDelta); got != line+"ready\n" {
		t.Errorf("text %q", got)
	}
	if r.Stats.SnapshotAsDelta != 1 {
		t.Errorf("%d repairs, want 1", r.Stats.SnapshotAsDelta)
	}
}
