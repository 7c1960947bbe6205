package render

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// testClock is a clock tests move by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// turnEvents is a saved session's turn, as a Claude Code transcript gives
// it: a prompt, then an answer (ended: true) or a call still running.
func turnEvents(id string, ended bool) []streaming.Event {
	evs := []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: id},
		{Kind: streaming.KindMessageStart, Message: "u1", Role: streaming.RoleUser},
		{Kind: streaming.KindTextDelta, Message: "u1", Role: streaming.RoleUser, Text: "Fix the test."},
		{Kind: streaming.KindBlockStop, Message: "u1", BlockKind: streaming.KindTextDelta},
		{Kind: streaming.KindMessageStop, Message: "u1", Role: streaming.RoleUser},
		{Kind: streaming.KindMessageStart, Message: "m1", Role: streaming.RoleAssistant},
		{Kind: streaming.KindTextDelta, Message: "m1", Role: streaming.RoleAssistant, Text: "Looking."},
		{Kind: streaming.KindBlockStop, Message: "m1", BlockKind: streaming.KindTextDelta},
	}
	if ended {
		evs = append(evs,
			streaming.Event{Kind: streaming.KindMessageStop, Message: "m1", Role: streaming.RoleAssistant},
			streaming.Event{Kind: streaming.KindMessageStart, Message: "m2", Role: streaming.RoleAssistant},
			streaming.Event{Kind: streaming.KindTextDelta, Message: "m2", Role: streaming.RoleAssistant, Text: "Fixed: the clock is fake now."},
			streaming.Event{Kind: streaming.KindBlockStop, Message: "m2", BlockKind: streaming.KindTextDelta},
			streaming.Event{Kind: streaming.KindMessageStop, Message: "m2", Role: streaming.RoleAssistant})
	} else {
		evs = append(evs, streaming.Event{Kind: streaming.KindToolStart, Message: "m1", ID: "t1", Name: "Bash", Input: `{"command":"go test"}`, Subject: "go test"})
	}
	return evs
}

// TestViewTurnOver: under watch, a session whose turn ended (its answer
// stands, no call pending, though no result line says so) is shown
// "waiting for a prompt" with no clock counting up; one whose call runs
// is "waiting on Bash" with its clock. Ctrl-C (Summary.Stopped) leaves
// both as they were: neither is shown interrupted.
func TestViewTurnOver(t *testing.T) {
	t.Parallel()
	clk := &testClock{t: fixedNow()}
	var out bytes.Buffer
	tick := make(chan time.Time, 1)
	cfg := Config{Width: 100, Height: 24, Color: false, env: renderenv.Env{Now: clk.now, Tick: tick}}
	v, err := NewView("pretty", &out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	frame := func() []string {
		tick <- time.Time{}
		if err := v.Flush(); err != nil {
			t.Fatal(err)
		}
		return vtcheck.Screen(out.Bytes(), 100)
	}
	head := func(rows []string, tag string) string {
		for i := len(rows) - 1; i >= 0; i-- {
			if strings.Contains(rows[i], tag+" ·") {
				return rows[i]
			}
		}
		t.Fatalf("no heading of %s:\n%s", tag, strings.Join(rows, "\n"))
		return ""
	}
	idle := v.Lane(Lane{Tag: "claude·idle", Agent: "claude", Session: "idle", Saved: true})
	busy := v.Lane(Lane{Tag: "claude·busy", Agent: "claude", Session: "busy", Saved: true})
	for _, l := range []struct {
		r     Renderer
		ended bool
	}{{idle, true}, {busy, false}} {
		for _, ev := range turnEvents("x", l.ended) {
			if err := l.r.Handle(&ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	clk.add(time.Second)
	if h := head(frame(), "claude·idle"); strings.Contains(h, "waiting for a prompt") {
		t.Errorf("an answer just written is taken as the turn's end at once: %q", h)
	}
	clk.add(time.Minute)
	rows := frame()
	if h := head(rows, "claude·idle"); !strings.Contains(h, "waiting for a prompt") || strings.Contains(h, "1m") {
		t.Errorf("a turn over: %q, want waiting for a prompt, no clock", h)
	}
	if h := head(rows, "claude·busy"); !strings.Contains(h, "waiting on Bash") || !strings.Contains(h, "1m01s") {
		t.Errorf("a call running: %q, want waiting on Bash with its clock", h)
	}
	for _, r := range []Renderer{idle, busy} {
		if err := r.Finish(Summary{Outcome: streaming.Incomplete, Stopped: true}); err != nil {
			t.Fatal(err)
		}
	}
	clk.add(time.Hour)
	if err := v.Finish(true); err != nil {
		t.Fatal(err)
	}
	rows = vtcheck.Screen(out.Bytes(), 100)
	text := strings.Join(rows, "\n")
	if strings.Contains(text, "interrupted") || strings.Contains(text, "incomplete") {
		t.Errorf("following stopped, yet a session is shown interrupted:\n%s", text)
	}
	if h := head(rows, "claude·idle"); !strings.Contains(h, "waiting for a prompt") {
		t.Errorf("after Ctrl-C: %q", h)
	}
	if h := head(rows, "claude·busy"); !strings.Contains(h, "waiting on Bash") || strings.Contains(h, "1h") {
		t.Errorf("after Ctrl-C: %q, want its state as it was when following stopped", h)
	}
}
