package claude_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// TestTodoWritePlan: a TodoWrite call is followed by a plan event with its
// todos, statuses in the closed set, and its title counts them.
func TestTodoWritePlan(t *testing.T) {
	r := run(t, initLine,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_T1","name":"TodoWrite","input":{"todos":[{"content":"Read the code","status":"completed","activeForm":"Reading"},{"content":"Fix the bug","status":"in_progress","activeForm":"Fixing"},{"content":"Run the tests","status":"pending","activeForm":"Testing"}]}}]},"session_id":"s1"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_T1","content":"Todos have been modified successfully."}]},"session_id":"s1"}`,
		resultWith("done"))
	plans := r.Of(streaming.KindPlan)
	if len(plans) != 1 || plans[0].ID != "toolu_T1" {
		t.Fatalf("%d plan events", len(plans))
	}
	want := []streaming.PlanEntry{{Text: "Read the code", Status: streaming.PlanCompleted}, {Text: "Fix the bug", Status: streaming.PlanInProgress}, {Text: "Run the tests", Status: streaming.PlanPending}}
	for i, e := range plans[0].Entries {
		if e.Text != want[i].Text || e.Status != want[i].Status {
			t.Errorf("entry %d: %+v, want %+v", i, e, want[i])
		}
	}
	if s := r.Of(streaming.KindToolStart); len(s) != 1 || s[0].Title != "3 todos, 1 done" || s[0].Subject != "3 todos, 1 done" {
		t.Errorf("tool.start %+v", s)
	}
}
