package codex_test

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// Lines of an app-server log with a sub-agent, after
// docs/formats/codex-app-server.md "Sub-agents" (root thread P, child C).
const (
	pThread   = `{"method":"thread/started","params":{"thread":{"id":"P","parentThreadId":null,"cwd":"/w"}}}`
	pTurn     = `{"method":"turn/started","params":{"threadId":"P","turn":{"id":"tp"}}}`
	pDone     = `{"method":"turn/completed","params":{"threadId":"P","turn":{"id":"tp","status":"completed","durationMs":900}}}`
	pAnswer   = `{"method":"item/completed","params":{"threadId":"P","item":{"type":"agentMessage","id":"mp","text":"parent answer","phase":"final_answer"}}}`
	spawnV2   = `{"method":"item/started","params":{"threadId":"P","item":{"type":"subAgentActivity","id":"call_sp","kind":"started","agentThreadId":"C","agentPath":"/root/helper"}}}`
	spawnV2c  = `{"method":"item/completed","params":{"threadId":"P","item":{"type":"subAgentActivity","id":"call_sp","kind":"started","agentThreadId":"C","agentPath":"/root/helper"}}}`
	cTurn     = `{"method":"turn/started","params":{"threadId":"C","turn":{"id":"tc"}}}`
	cCommand  = `{"method":"item/completed","params":{"threadId":"C","item":{"type":"commandExecution","id":"exec-1","command":"ls","status":"completed","aggregatedOutput":"a\n","exitCode":0}}}`
	cAnswer   = `{"method":"item/completed","params":{"threadId":"C","item":{"type":"agentMessage","id":"mc","text":"child answer","phase":"final_answer"}}}`
	cDone     = `{"method":"turn/completed","params":{"threadId":"C","turn":{"id":"tc","status":"completed","durationMs":300}}}`
	cFailed   = `{"method":"turn/completed","params":{"threadId":"C","turn":{"id":"tc","status":"failed","error":{"message":"usage limit reached"}}}}`
	collabRun = `{"method":"item/started","params":{"threadId":"P","item":{"type":"collabAgentToolCall","id":"call_v1","tool":"spawnAgent","status":"inProgress","senderThreadId":"P","receiverThreadIds":[],"prompt":"count lines","agentsStates":{}}}}`
	collabEnd = `{"method":"item/completed","params":{"threadId":"P","item":{"type":"collabAgentToolCall","id":"call_v1","tool":"spawnAgent","status":"completed","senderThreadId":"P","receiverThreadIds":["C"],"prompt":"count lines","agentsStates":{"C":{"status":"running"}}}}}`
)

// index is the position of the first event matching f, -1 if none.
func index(evs []streaming.Event, f func(e *streaming.Event) bool) int {
	for i := range evs {
		if f(&evs[i]) {
			return i
		}
	}
	return -1
}

func TestAppServerChildTurnIsNotTheRun(t *testing.T) {
	r := appRun(t, pThread, pTurn, spawnV2, spawnV2c, cTurn, cCommand, cAnswer, cDone, pAnswer, pDone)
	if res := r.Of(streaming.KindResult); len(res) != 1 || !res[0].OK {
		t.Fatalf("results %+v: one per root turn, a child's turn/completed is none", res)
	}
	if n := len(r.Of(streaming.KindSessionStart)); n != 1 {
		t.Errorf("%d session starts: the child's turn is not a run", n)
	}
	if r.Outcome != streaming.Success || r.Answer != "parent answer" {
		t.Errorf("outcome %v answer %q: the answer is the root thread's", r.Outcome, r.Answer)
	}
}

func TestAppServerChildWorkNestedUnderSpawn(t *testing.T) {
	r := appRun(t, pThread, pTurn, spawnV2, spawnV2c, cTurn, cCommand, cAnswer, cDone, pAnswer, pDone)
	for _, e := range r.Events {
		child := e.ID == "exec-1" || e.Message == "mc"
		if child && e.Parent != "call_sp" {
			t.Errorf("child %s %s%s: parent %q, want the spawn call", e.Kind, e.ID, e.Message, e.Parent)
		}
		if !child && e.Parent != "" {
			t.Errorf("root %s %s%s: parent %q", e.Kind, e.ID, e.Message, e.Parent)
		}
	}
	starts := r.Of(streaming.KindToolStart)
	if len(starts) != 2 || starts[0].ID != "call_sp" || starts[0].Name != "spawn_agent" || starts[0].Title != "/root/helper" {
		t.Fatalf("tool starts %+v: the activity (started and completed alike) is one spawn call", starts)
	}
	// The spawn call's done line comes after its child's work.
	end := index(r.Events, func(e *streaming.Event) bool { return e.Kind == streaming.KindToolEnd && e.ID == "call_sp" })
	work := index(r.Events, func(e *streaming.Event) bool { return e.Message == "mc" && e.Kind == streaming.KindTextDelta })
	if end < 0 || work < 0 || end < work || r.Events[end].Status != streaming.ToolOK {
		t.Errorf("spawn end at %d (%+v), child text at %d", end, r.Events[max(end, 0)], work)
	}
}

func TestAppServerCollabSpawnTiesThreadBeforeCompleting(t *testing.T) {
	// The child's turn starts while spawnAgent runs (receivers named only
	// at completion); its turn fails: a failed sub-task, not a failed run.
	r := appRun(t, pThread, pTurn, collabRun, cTurn, cCommand, collabEnd, cFailed, pAnswer, pDone)
	for _, e := range r.Events {
		if e.ID == "exec-1" && e.Parent != "call_v1" {
			t.Errorf("child %s: parent %q, want call_v1", e.Kind, e.Parent)
		}
	}
	ends := r.Of(streaming.KindToolEnd)
	i := index(ends, func(e *streaming.Event) bool { return e.ID == "call_v1" })
	if i < 0 || ends[i].Status != streaming.ToolError || !strings.Contains(ends[i].Output, "usage limit reached") {
		t.Fatalf("spawn end %+v: failed with the child's error", ends)
	}
	if r.Outcome != streaming.Success {
		t.Errorf("outcome %v: the root turn completed", r.Outcome)
	}
}

func TestAppServerChildWithoutSpawnCall(t *testing.T) {
	// A child thread no spawn call names gets a call of its own, which
	// its turn/completed ends.
	r := appRun(t, pThread, pTurn, cTurn, cAnswer, cDone, pAnswer, pDone)
	starts := r.Of(streaming.KindToolStart)
	if len(starts) != 1 || starts[0].Name != "agent" {
		t.Fatalf("tool starts %+v", starts)
	}
	for _, e := range r.Events {
		if e.Message == "mc" && e.Parent != starts[0].ID {
			t.Errorf("child %s: parent %q, want %q", e.Kind, e.Parent, starts[0].ID)
		}
	}
	if ends := r.Of(streaming.KindToolEnd); len(ends) != 1 || ends[0].ID != starts[0].ID || ends[0].Status != streaming.ToolOK || ends[0].DurationMS != 300 {
		t.Errorf("tool ends %+v", ends)
	}
}

func TestAppServerSpawnWithoutChildEventsEndsBeforeResult(t *testing.T) {
	// A log of the root thread only: the spawn call ends with the run, not
	// as incomplete at the end of input.
	r := appRun(t, pThread, pTurn, spawnV2, spawnV2c, pAnswer, pDone)
	end := index(r.Events, func(e *streaming.Event) bool { return e.Kind == streaming.KindToolEnd && e.ID == "call_sp" })
	res := index(r.Events, func(e *streaming.Event) bool { return e.Kind == streaming.KindResult })
	if end < 0 || end > res || r.Events[end].Status != streaming.ToolOK {
		t.Errorf("spawn end at %d, result at %d", end, res)
	}
}

func TestAppServerChildOutlivesRootTurn(t *testing.T) {
	r := appRun(t, pThread, pTurn, spawnV2, spawnV2c, cTurn, pAnswer, pDone, cCommand, cAnswer, cDone)
	if r.Outcome != streaming.Success || r.Answer != "parent answer" {
		t.Errorf("outcome %v (%s) answer %q: the child's work after the result belongs to the run", r.Outcome, r.Reason, r.Answer)
	}
	if n := len(r.Of(streaming.KindResult)); n != 1 {
		t.Errorf("%d results", n)
	}
}

func TestAppServerRootCutOffAfterChildDone(t *testing.T) {
	r := appRun(t, pThread, pTurn, spawnV2, spawnV2c, cTurn, cAnswer, cDone)
	if r.Outcome != streaming.Incomplete {
		t.Errorf("outcome %v: the root turn never completed", r.Outcome)
	}
}

func TestAppServerUsageSumsThreads(t *testing.T) {
	usage := func(thread string, in int) string {
		return `{"method":"thread/tokenUsage/updated","params":{"threadId":"` + thread + `","tokenUsage":{"total":{"inputTokens":` + itoa(in) + `,"outputTokens":1}}}}`
	}
	r := appRun(t, pThread, pTurn, spawnV2, cTurn, usage("C", 100), usage("C", 300), cDone, usage("P", 1000), usage("P", 2000), pDone)
	res := r.Of(streaming.KindResult)
	if len(res) != 1 || res[0].Usage == nil || res[0].Usage.InputTokens != 2300 || res[0].Usage.OutputTokens != 2 {
		t.Fatalf("result usage %+v: each thread's last total, summed over threads", res[0].Usage)
	}
}

func TestAppServerModelFromThreadStartResponse(t *testing.T) {
	r := appRun(t,
		`{"id":1,"result":{"userAgent":"x/0.146.0","codexHome":"/h/.codex","platformFamily":"unix","platformOs":"linux"}}`,
		`{"id":2,"result":{"thread":{"id":"P","cliVersion":"0.146.0","modelProvider":"openai"},"model":"gpt-5.6-sol"}}`,
		pThread, pTurn, pDone)
	st := r.Of(streaming.KindSessionStart)
	if len(st) != 1 || st[0].Model != "gpt-5.6-sol" {
		t.Fatalf("session.start %+v: the model of the thread/start response", st)
	}
	if n := len(r.Of(streaming.KindUnknown)); n != 0 {
		t.Errorf("%d unknown events: the responses are the app-server's", n)
	}
}
