package render

import (
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// A thought shown whole in pretty's summary line gets no character
// count; one cut to fit does.
func TestPrettyThinkingCountOnlyWhenCut(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text  string
		count bool
	}{
		{"The test fails because the clock is real.", false},
		{strings.Repeat("The clock is real. ", 12), true},
	} {
		d := newDriver(t, Config{Width: 80, Thinking: ThinkingSummary})
		d.stream(streaming.KindThinkingDelta, "m1", c.text)
		d.push(streaming.Event{Kind: streaming.KindMessageStop, Message: "m1"})
		out, _ := d.finish(false)
		screen := strings.Join(vtcheck.Screen(out, 80), "\n")
		if got := strings.Contains(screen, " chars)"); got != c.count {
			t.Errorf("count shown %v, want %v:\n%s", got, c.count, screen)
		}
	}
}

// A plan a call made is shown in plain in place of the call's output
// (Claude's TodoWrite note to the model); other calls keep theirs.
func TestPlainPlanCallHidesItsNote(t *testing.T) {
	t.Parallel()
	d := newDriver(t, Config{Width: 100})
	d.toolStart("t1", "TodoWrite", `{"todos":[]}`)
	d.push(streaming.Event{Kind: streaming.KindPlan, ID: "t1", Entries: []streaming.PlanEntry{{Text: "Find the flaky test", Status: streaming.PlanInProgress}}})
	d.toolEnd("t1", streaming.ToolOK, "Todos have been modified successfully. Ensure that you continue", nil)
	d.toolStart("t2", "Bash", `{"command":"make"}`)
	d.toolEnd("t2", streaming.ToolOK, "built fine\n", nil)
	_, plain := d.finish(false)
	got := string(plain)
	if strings.Contains(got, "Todos have been modified") || !strings.Contains(got, "Find the flaky test") || !strings.Contains(got, "built fine") {
		t.Errorf("plain:\n%s", got)
	}
}

// A cost of zero is no figure: the summary says none.
func TestResultFactsNoZeroCost(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		usd  float64
		want string
	}{{0, ""}, {0.0123, "$0.0123"}} {
		u := &streaming.Usage{InputTokens: 10, OutputTokens: 5, HasCost: true, CostUSD: c.usd}
		s := feed(t, streaming.HandlerFunc(func(*streaming.Event) error { return nil }),
			[]streaming.Event{{Kind: streaming.KindResult, Usage: u}})
		got := strings.Join(eventtext.Figures(s.Run()), " · ")
		if strings.Contains(got, "$") != (c.want != "") || !strings.Contains(got, c.want) {
			t.Errorf("cost %v: %q", c.usd, got)
		}
	}
}

// The run's closing line stays last: an error that comes after the
// result (codex exec's own word after a failed turn) is shown above it,
// in pretty and plain. Anything else after the result lets it go first.
func TestClosingLineStaysLast(t *testing.T) {
	t.Parallel()
	d := newDriver(t, Config{Width: 80})
	d.push(streaming.Event{Kind: streaming.KindSessionStart, Agent: "codex"})
	d.push(streaming.Event{Kind: streaming.KindError, Text: "no npm", Fatal: true})
	d.push(streaming.Event{Kind: streaming.KindResult, Reason: "no npm"})
	d.push(streaming.Event{Kind: streaming.KindError, Text: "codex exec exited non-zero"})
	d.push(streaming.Event{Kind: streaming.KindSessionStart, Agent: "codex"})
	d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	d.push(streaming.Event{Kind: streaming.KindError, Text: "late"})
	d.text("m1", "next\n")
	pretty, plain := d.finish(false)
	want := []string{"✗ error: codex exec exited non-zero", "── ✗ failed: no npm", "● codex", "✗ error: late", "── ✓ done", "next"}
	for name, out := range map[string]string{"pretty": strings.Join(vtcheck.Screen(pretty, 80), "\n"), "plain": string(plain)} {
		at := 0
		for _, w := range want {
			i := strings.Index(out[at:], w)
			if i < 0 {
				t.Errorf("%s: %q not after the lines before it:\n%s", name, w, out)
				break
			}
			at += i + len(w)
		}
	}
}

// A run with no result (an agent's session file, followed) whose last
// words were an answer with no call pending waits for a prompt: the
// status line says so and counts no time; a call running is no wait.
func TestPrettyStatusWaitsForPrompt(t *testing.T) {
	t.Parallel()
	status := func(d *driver) string {
		d.frame()
		rows := vtcheck.Screen(d.out.Bytes(), 80)
		return rows[len(rows)-1]
	}
	d := newDriver(t, Config{Width: 80})
	d.text("m1", "Done: the tests pass.\n")
	d.push(streaming.Event{Kind: streaming.KindMessageStop, Message: "m1"})
	d.advance(5 * time.Second)
	if s := status(d); !strings.Contains(s, "waiting for a prompt") || strings.Contains(s, "5s") {
		t.Errorf("after an answer: %q", s)
	}
	d.toolStart("t1", "Bash", `{"command":"make"}`)
	d.advance(5 * time.Second)
	if s := status(d); strings.Contains(s, "waiting for a prompt") {
		t.Errorf("with a call running: %q", s)
	}
}
