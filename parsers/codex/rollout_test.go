package codex_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestRolloutGolden: testdata/codex-rollout fixtures, written from
// docs/formats/codex-rollout.md, decoded; their .json goldens pin the
// events.
func TestRolloutGolden(t *testing.T) {
	parsertest.Golden(t, all.Agents(), "codex-rollout")
}

const meta = `{"timestamp":"t","type":"session_meta","payload":{"id":"th","cwd":"/w"}}`

func ev(typ, payload string) string {
	return `{"timestamp":"t","type":"` + typ + `","payload":` + payload + `}`
}

func TestRolloutWordsOnce(t *testing.T) {
	// event_msg agent_message and agent_reasoning repeat the response_item
	// words: shown once.
	r := appRun(t, meta,
		ev("event_msg", `{"type":"task_started","turn_id":"1"}`),
		ev("event_msg", `{"type":"user_message","message":"hi"}`),
		ev("event_msg", `{"type":"agent_reasoning","text":"**Greeting**"}`),
		ev("response_item", `{"type":"reasoning","summary":[{"type":"summary_text","text":"**Greeting**"}]}`),
		ev("event_msg", `{"type":"agent_message","message":"Hello there."}`),
		ev("response_item", `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello there."}]}`),
		ev("event_msg", `{"type":"task_complete","turn_id":"1","last_agent_message":"Hello there."}`))
	if got := appText(r); got != "Hello there." {
		t.Errorf("assistant text %q, want it once", got)
	}
	if got := r.Text(streaming.KindThinkingDelta); got != "**Greeting**" {
		t.Errorf("thinking %q, want it once", got)
	}
	if r.Outcome != streaming.Success || r.Answer != "Hello there." {
		t.Errorf("outcome %v answer %q", r.Outcome, r.Answer)
	}
	if n := len(r.Of(streaming.KindUnknown)); n != 0 {
		t.Errorf("%d unknown events", n)
	}
}

func TestRolloutExitStatus(t *testing.T) {
	start := []string{meta, ev("event_msg", `{"type":"user_message","message":"go"}`)}
	call := ev("response_item", `{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}`)
	out := ev("response_item", `{"type":"function_call_output","call_id":"c1","output":"a\n"}`)
	answer := ev("response_item", `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}`)
	for name, c := range map[string]struct {
		lines []string
		want  streaming.Outcome
	}{
		"answered, no task events": {[]string{answer}, streaming.Success},
		"call without output":      {[]string{call}, streaming.Incomplete},
		"output awaiting model":    {[]string{call, out}, streaming.Incomplete},
		"aborted":                  {[]string{call, ev("event_msg", `{"type":"turn_aborted","reason":"interrupted"}`)}, streaming.Failure},
		"task_complete with error": {[]string{ev("event_msg", `{"type":"task_complete","error":{"message":"quota"}}`)}, streaming.Failure},
		"later turn cut off":       {[]string{answer, ev("event_msg", `{"type":"task_complete"}`), ev("event_msg", `{"type":"task_started"}`), ev("event_msg", `{"type":"user_message","message":"again"}`), call}, streaming.Incomplete},
	} {
		r := appRun(t, append(append([]string{}, start...), c.lines...)...)
		if r.Outcome != c.want {
			t.Errorf("%s: outcome %v, want %v", name, r.Outcome, c.want)
		}
	}
}

func TestRolloutBareLayoutDetected(t *testing.T) {
	r := appRun(t,
		`{"id":"5973b6c0","timestamp":"2025-05-07T17:24:21.123Z","instructions":"x"}`,
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"count files"}]}`,
		`{"record_type":"state"}`,
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Seven."}]}`)
	if got := appText(r); got != "Seven." || r.Outcome != streaming.Success {
		t.Errorf("text %q outcome %v", got, r.Outcome)
	}
	if s := r.Of(streaming.KindSessionStart); len(s) != 1 || s[0].Agent != "codex" || s[0].SessionID != "5973b6c0" {
		t.Errorf("session.start %+v", s)
	}
}

func TestRolloutPatchEdits(t *testing.T) {
	r := appRun(t, meta,
		ev("response_item", `{"type":"custom_tool_call","name":"apply_patch","call_id":"p1","input":"*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** Add File: b.md\n+hello\n*** Delete File: c.txt\n*** End Patch"}`))
	st := r.Of(streaming.KindToolStart)
	if len(st) != 1 || len(st[0].Edits) != 3 {
		t.Fatalf("tool.start %+v", st)
	}
	e := st[0].Edits
	if e[0].Path != "a.go" || e[0].Op != streaming.EditModify || e[0].Diff != "@@\n-x\n+y\n" ||
		e[1].Op != streaming.EditCreate || e[1].New != "hello\n" || e[2].Op != streaming.EditDelete {
		t.Errorf("edits %+v", e)
	}
}

func TestRolloutIDEContextLeftOut(t *testing.T) {
	r := appRun(t, meta, ev("event_msg", `{"type":"user_message","message":"# Context from my IDE setup:\n\n## Active file: a.ts\n\n## My request for Codex:\nRename foo.\n","kind":"plain"}`))
	var prompt string
	for _, e := range r.Of(streaming.KindTextDelta) {
		if e.Role == streaming.RoleUser {
			prompt += e.Text
		}
	}
	if prompt != "Rename foo." {
		t.Errorf("prompt %q, want the request without the IDE context", prompt)
	}
}
