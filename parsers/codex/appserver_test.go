package codex_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/conformance"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// appRun decodes lines with the whole registry, as the command does:
// detection is part of what is tested.
func appRun(t *testing.T, lines ...string) parsertest.Result {
	t.Helper()
	return parsertest.Run(all.Agents(), strings.Join(lines, "\n")+"\n").Check(t)
}

// TestAppServerGolden: testdata/codex-app-server fixtures, written from
// docs/formats/codex-app-server.md, decoded; their .json goldens pin the
// events.
func TestAppServerGolden(t *testing.T) {
	parsertest.Golden(t, all.Agents(), "codex-app-server")
}

func appText(r parsertest.Result) string { return r.Text(streaming.KindTextDelta) }

func TestAppServerDeltasThenFinalShownOnce(t *testing.T) {
	r := appRun(t,
		`{"method":"thread/started","params":{"thread":{"id":"t1"}}}`,
		`{"method":"turn/started","params":{"threadId":"t1","turn":{"id":"u1"}}}`,
		`{"method":"item/started","params":{"item":{"type":"agentMessage","id":"m1","text":""}}}`,
		`{"method":"item/agentMessage/delta","params":{"itemId":"m1","delta":"Hello, "}}`,
		`{"method":"item/agentMessage/delta","params":{"itemId":"m1","delta":"world"}}`,
		`{"method":"item/completed","params":{"item":{"type":"agentMessage","id":"m1","text":"Hello, world."}}}`,
		`{"method":"turn/completed","params":{"threadId":"t1","turn":{"id":"u1","status":"completed"}}}`)
	if got := appText(r); got != "Hello, world." {
		t.Errorf("text %q, want the deltas and the final's missing suffix once", got)
	}
	if r.Outcome != streaming.Success || r.Answer != "Hello, world." {
		t.Errorf("outcome %v answer %q", r.Outcome, r.Answer)
	}
	for _, e := range r.Events {
		if e.Agent != "codex" {
			t.Fatalf("event %s from agent %q, want codex", e.Kind, e.Agent)
		}
	}
}

func TestAppServerCompletedOnlyShowsText(t *testing.T) {
	// A client that opted out of deltas sees only the completed item.
	r := appRun(t,
		`{"method":"item/started","params":{"item":{"type":"agentMessage","id":"m1","text":""}}}`,
		`{"method":"item/completed","params":{"item":{"type":"agentMessage","id":"m1","text":"Only the final."}}}`)
	if got := appText(r); got != "Only the final." {
		t.Errorf("text %q", got)
	}
	if r.Outcome != streaming.Incomplete {
		t.Errorf("no turn/completed: outcome %v, want incomplete", r.Outcome)
	}
}

func TestAppServerUsageIsCumulative(t *testing.T) {
	usage := func(in, out int) string {
		return `{"method":"thread/tokenUsage/updated","params":{"tokenUsage":{"total":{"inputTokens":` + itoa(in) + `,"outputTokens":` + itoa(out) + `,"cachedInputTokens":0},"last":{"inputTokens":1,"outputTokens":1}}}}`
	}
	r := appRun(t,
		`{"method":"turn/started","params":{"turn":{"id":"u1"}}}`,
		usage(100, 10), usage(250, 30),
		`{"method":"turn/completed","params":{"turn":{"id":"u1","status":"completed"}}}`)
	res := r.Of(streaming.KindResult)
	if len(res) != 1 || res[0].Usage == nil || res[0].Usage.InputTokens != 250 || res[0].Usage.OutputTokens != 30 {
		t.Fatalf("result usage %+v, want the last total (250/30), never a sum", res)
	}
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

func TestAppServerTurnStatus(t *testing.T) {
	for _, c := range []struct {
		status string
		want   streaming.Outcome
	}{{"completed", streaming.Success}, {"failed", streaming.Failure}, {"interrupted", streaming.Failure}} {
		r := appRun(t,
			`{"method":"turn/started","params":{"turn":{"id":"u1"}}}`,
			`{"method":"error","params":{"error":{"message":"Reconnecting... 1/5"},"willRetry":true}}`,
			`{"method":"turn/completed","params":{"turn":{"id":"u1","status":"`+c.status+`","error":{"message":"boom"}}}}`)
		if r.Outcome != c.want {
			t.Errorf("%s: outcome %v, want %v", c.status, r.Outcome, c.want)
		}
		if n := len(r.Of(streaming.KindError)); c.status == "completed" && n != 0 {
			t.Errorf("a retry (willRetry) is not an error: %d errors", n)
		}
	}
}

func TestAppServerApprovalIsPermission(t *testing.T) {
	r := appRun(t,
		`{"method":"item/started","params":{"item":{"type":"commandExecution","id":"c1","command":"rm -rf /tmp/x","status":"inProgress"}}}`,
		`{"id":"req-9","method":"item/commandExecution/requestApproval","params":{"itemId":"c1","command":"rm -rf /tmp/x","reason":"deletes"}}`,
		`{"id":"req-9","result":{"decision":"decline"}}`,
		`{"method":"item/completed","params":{"item":{"type":"commandExecution","id":"c1","command":"rm -rf /tmp/x","status":"declined"}}}`)
	req, resp := r.Of(streaming.KindPermissionRequest), r.Of(streaming.KindPermissionResponse)
	if len(req) != 1 || len(resp) != 1 || resp[0].Choice != "decline" || req[0].ID != resp[0].ID {
		t.Fatalf("permission events %+v %+v", req, resp)
	}
	if ends := r.Of(streaming.KindToolEnd); len(ends) != 1 || ends[0].Status != streaming.ToolDeclined {
		t.Errorf("tool ends %+v", ends)
	}
}

func TestAppServerFileChangeEdits(t *testing.T) {
	r := appRun(t,
		`{"method":"item/started","params":{"item":{"type":"fileChange","id":"f1","status":"inProgress","changes":[{"path":"a.go","kind":{"type":"update"},"diff":"@@ -1 +1 @@\n-a\n+b\n"},{"path":"n.md","kind":{"type":"add"},"diff":"new\n"},{"path":"old.txt","kind":{"type":"delete"},"diff":""}]}}}`)
	st := r.Of(streaming.KindToolStart)
	if len(st) != 1 || len(st[0].Edits) != 3 {
		t.Fatalf("tool.start %+v", st)
	}
	e := st[0].Edits
	if e[0].Op != streaming.EditModify || e[0].Diff == "" || e[1].Op != streaming.EditCreate || e[1].New != "new\n" || e[2].Op != streaming.EditDelete {
		t.Errorf("edits %+v", e)
	}
}

func TestAppServerCommandOutputDeltas(t *testing.T) {
	r := appRun(t,
		`{"method":"item/started","params":{"item":{"type":"commandExecution","id":"c1","command":"make","status":"inProgress"}}}`,
		`{"method":"item/commandExecution/outputDelta","params":{"itemId":"c1","delta":"one\n"}}`,
		`{"method":"item/commandExecution/outputDelta","params":{"itemId":"c1","delta":"two\n"}}`,
		`{"method":"item/completed","params":{"item":{"type":"commandExecution","id":"c1","command":"make","status":"completed","aggregatedOutput":"one\ntwo\n","exitCode":0,"durationMs":5}}}`)
	if got := r.Text(streaming.KindToolOutputDelta); got != "one\ntwo\n" {
		t.Errorf("output deltas %q: each line once", got)
	}
	ends := r.Of(streaming.KindToolEnd)
	if len(ends) != 1 || ends[0].Output != "one\ntwo\n" || ends[0].ExitCode == nil || *ends[0].ExitCode != 0 {
		t.Errorf("tool.end %+v", ends)
	}
}

// TestAppServerFixturesAgainstExtractor checks the hand-written app-server
// fixtures with the conformance reading: every agent message shown once,
// the root thread's exit status and answer.
func TestAppServerFixturesAgainstExtractor(t *testing.T) {
	x, ok := conformance.Lookup("codex-app-server")
	if !ok {
		t.Fatal("no codex-app-server extractor registered")
	}
	for _, f := range parsertest.Fixtures(t, "codex-app-server") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checkExpect(t, parsertest.Run(all.Agents(), string(data)), x(data, filepath.Base(f)))
		})
	}
}
