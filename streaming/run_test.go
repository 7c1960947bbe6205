package streaming

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// The property test of the run's figures (Session.Run): random runs of
// session starts, tool calls, usage, results and text go through a
// Session, and after every event its Run is compared with a model of
// what the contract says a run is, written from docs/events.md and the
// package documentation, not from the session's code:
//
//   - a run begins at a session.start (numbered: Runs), and after a
//     result at the next message, result, text delta or start of a tool
//     call it has not seen; the agent and model are the session.start's,
//     kept by a run that began without one;
//   - a tool call counts once, when it ends (a repeated end or start
//     counts nothing), in the run it ends in; calls left open count as
//     incomplete where the session closes them (a new session.start, the
//     end of input); error and declined ends are failures;
//   - the usage is the result's when it gives one, else the last one
//     reported in the run; the result's duration and turns; the first
//     and last event times of the run.

// modelRun is the model's run.
type modelRun struct {
	runs          int
	agent, model  string
	calls, failed int
	tools         map[string]int
	order         []string // tool names in the order of first calls
	usage         *Usage
	resultUsage   *Usage
	done, ok      bool
	duration      int64
	turns         int
	first, last   time.Time
}

type runModel struct {
	cur   modelRun
	open  map[string]string // open calls: id → name
	order []string          // open call ids, in the order they started
	ended map[string]bool   // ids ended in this run
}

func (m *runModel) next(start *Event) {
	r := modelRun{runs: m.cur.runs, agent: m.cur.agent, model: m.cur.model, tools: map[string]int{}}
	if start != nil {
		r.runs++
		r.agent, r.model = start.Agent, start.Model
	}
	m.cur = r
	m.ended = map[string]bool{}
}

func (m *runModel) end(id, name string, st ToolStatus) {
	delete(m.open, id)
	m.order = slices.DeleteFunc(m.order, func(o string) bool { return o == id })
	m.ended[id] = true
	m.cur.calls++
	if st == ToolError || st == ToolDeclined {
		m.cur.failed++
	}
	if m.cur.tools[name] == 0 {
		m.cur.order = append(m.cur.order, name)
	}
	m.cur.tools[name]++
}

// closeOpen ends the open calls as incomplete, in the order they
// started.
func (m *runModel) closeOpen() {
	for _, id := range slices.Clone(m.order) {
		m.end(id, m.open[id], ToolIncomplete)
	}
}

func (m *runModel) step(ev *Event) {
	if ev.Kind == KindSessionStart {
		m.closeOpen()
		m.next(ev)
	} else if m.cur.done {
		begins := false
		switch ev.Kind {
		case KindMessageStart, KindResult, KindTextDelta:
			begins = true
		case KindToolStart:
			_, open := m.open[ev.ID]
			begins = !open && !m.ended[ev.ID]
		}
		if begins {
			m.next(nil)
		}
	}
	if !ev.Time.IsZero() {
		if m.cur.first.IsZero() {
			m.cur.first = ev.Time
		}
		m.cur.last = ev.Time
	}
	if m.cur.agent == "" {
		m.cur.agent = ev.Agent
	}
	switch ev.Kind {
	case KindToolStart:
		if _, open := m.open[ev.ID]; !open && !m.ended[ev.ID] {
			m.open[ev.ID] = ev.Name
			m.order = append(m.order, ev.ID)
		}
	case KindToolEnd:
		if m.ended[ev.ID] {
			return
		}
		name, open := m.open[ev.ID]
		if !open {
			name = ev.Name
		}
		st := ev.Status
		if st == "" {
			st = ToolOK
		}
		m.end(ev.ID, name, st)
	case KindUsage:
		u := *ev.Usage
		m.cur.usage = &u
	case KindResult:
		m.cur.done, m.cur.ok, m.cur.duration, m.cur.turns = true, ev.OK, ev.DurationMS, ev.Turns
		if ev.Usage != nil {
			u := *ev.Usage
			m.cur.resultUsage = &u
		}
	}
}

// check compares the session's run with the model's.
func (m *runModel) check(t *testing.T, n int, r *Run) {
	t.Helper()
	want := m.cur
	wantUsage := want.usage
	if want.resultUsage != nil {
		wantUsage = want.resultUsage
	}
	var order []string
	tools := map[string]int{}
	for name, c := range r.Tools() {
		order = append(order, name)
		tools[name] = c
	}
	wantDur := want.duration
	if !want.done && !want.first.IsZero() && want.last.After(want.first) {
		wantDur = want.last.Sub(want.first).Milliseconds()
	}
	switch {
	case r.Runs != want.runs || r.Agent != want.agent || r.Model != want.model:
		t.Fatalf("event %d: run %d %q %q, want %d %q %q", n, r.Runs, r.Agent, r.Model, want.runs, want.agent, want.model)
	case r.ToolCalls != want.calls || r.Failed != want.failed:
		t.Fatalf("event %d: %d calls %d failed, want %d %d", n, r.ToolCalls, r.Failed, want.calls, want.failed)
	case !slices.Equal(order, want.order) || !maps.Equal(tools, want.tools):
		t.Fatalf("event %d: tools %v %v, want %v %v", n, order, tools, want.order, want.tools)
	case !reflect.DeepEqual(r.Usage, wantUsage):
		t.Fatalf("event %d: usage %+v, want %+v", n, r.Usage, wantUsage)
	case r.Done != want.done || r.OK != want.ok || r.DurationMS != want.duration || r.Turns != want.turns:
		t.Fatalf("event %d: result %v %v %d %d, want %v %v %d %d", n, r.Done, r.OK, r.DurationMS, r.Turns,
			want.done, want.ok, want.duration, want.turns)
	case !r.First.Equal(want.first) || !r.Last.Equal(want.last) || r.Duration() != wantDur:
		t.Fatalf("event %d: times %v %v (%d ms), want %v %v (%d ms)", n, r.First, r.Last, r.Duration(),
			want.first, want.last, wantDur)
	}
}

// genRunEvent makes the next event of a run from two bytes.
func genRunEvent(b, c byte, n int) Event {
	id := fmt.Sprint("t", c%3)
	name := [...]string{"Bash", "Read", "Edit"}[c%3] // (a call keeps its name)
	var at time.Time
	if c&0x40 != 0 {
		at = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Second)
	}
	switch b % 8 {
	case 0:
		return Event{Kind: KindSessionStart, Agent: [...]string{"claude", "codex"}[c%2], Model: fmt.Sprint("m", c%3), Time: at}
	case 1, 2:
		return Event{Kind: KindToolStart, ID: id, Name: name, Agent: "claude", Time: at}
	case 3:
		st := [...]ToolStatus{"", ToolOK, ToolError, ToolDeclined}[c>>4%4]
		return Event{Kind: KindToolEnd, ID: id, Name: name, Status: st, Time: at}
	case 4:
		return Event{Kind: KindUsage, Usage: &Usage{InputTokens: int64(c), OutputTokens: int64(n)}, Time: at}
	case 5:
		ev := Event{Kind: KindResult, OK: c&1 == 0, DurationMS: int64(c) * 10, Turns: int(c % 5), Time: at}
		if c&2 != 0 {
			ev.Usage = &Usage{InputTokens: int64(n), CostUSD: 0.5, HasCost: true}
		}
		return ev
	case 6:
		return Event{Kind: KindTextDelta, Message: fmt.Sprint("m", n), Role: RoleAssistant, Text: "x", Time: at}
	}
	return Event{Kind: KindStatus, Text: "working", Time: at}
}

func checkRun(t *testing.T, data []byte) {
	m := &runModel{open: map[string]string{}}
	m.next(nil)
	var s *Session
	s = NewSession(HandlerFunc(func(ev *Event) error {
		// While an event is handled, the run already counts it.
		switch r := s.Run(); ev.Kind {
		case KindResult:
			if !r.Done || r.OK != ev.OK {
				t.Fatalf("the run %+v during its result's Handle", r)
			}
		case KindToolEnd:
			if r.ToolCalls == 0 {
				t.Fatalf("a tool.end handled with no call counted")
			}
		}
		return nil
	}), Options{})
	for i, n := 0, 0; i+1 < len(data); i, n = i+2, n+1 {
		ev := genRunEvent(data[i], data[i+1], n)
		m.step(&ev)
		if err := s.Push(&ev); err != nil {
			t.Fatal(err)
		}
		m.check(t, n, s.Run())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	m.closeOpen()
	m.check(t, -1, s.Run())
}

func FuzzSessionRun(f *testing.F) {
	// Two calls, one failed, usage and a result; then another run
	// without a session.start, left open.
	f.Add([]byte{0, 0, 1, 0, 1, 1, 3, 0x20, 3, 1, 4, 7, 5, 2, 1, 4, 6, 0, 3, 4})
	f.Fuzz(checkRun)
}

// TestSessionRunRandom runs the property on pseudo-random inputs: 2000
// of them in the slow run, the first 480 every day (each length of input
// eight times).
func TestSessionRunRandom(t *testing.T) {
	t.Parallel()
	x := uint32(88172645)
	runs := 2000
	if !testenv.SlowEnabled() {
		runs = 480
	}
	for run := 0; run < runs; run++ {
		data := make([]byte, 2*(5+run%60))
		for i := range data {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			data[i] = byte(x)
		}
		checkRun(t, data)
	}
}

// TestCategoryCarried: a call's category goes from its start to its end
// (and to the end the session makes at Close); a call started
// implicitly takes the category of the start that names it later.
func TestCategoryCarried(t *testing.T) {
	t.Parallel()
	got := map[string]string{}
	s := NewSession(HandlerFunc(func(ev *Event) error {
		if ev.Kind == KindToolEnd {
			got[ev.ID] = ev.Category
		}
		return nil
	}), Options{})
	for _, ev := range []Event{
		{Kind: KindToolStart, ID: "a", Name: "Read", Category: "read"},
		{Kind: KindToolEnd, ID: "a"},
		{Kind: KindToolOutputDelta, ID: "b", Text: "x"},
		{Kind: KindToolStart, ID: "b", Name: "Bash", Category: "command"},
		{Kind: KindToolEnd, ID: "b"},
		{Kind: KindToolStart, ID: "c", Name: "Task", Category: "task"},
	} {
		if err := s.Push(&ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"a": "read", "b": "command", "c": "task"}; !maps.Equal(got, want) {
		t.Errorf("categories at the ends %v, want %v", got, want)
	}
}

// TestRunBlock: the run's current block is the block that showed text
// last, until its block.stop, checked on the events of the session
// reference test's generator: during a block's text it is that block,
// during its block.stop it is not, and between events it is the last
// block that showed text if that one is not final yet.
func TestRunBlock(t *testing.T) {
	t.Parallel()
	type key struct {
		msg   string
		kind  Kind
		index int
	}
	x := uint32(314159265)
	for run := 0; run < 300; run++ {
		data := make([]byte, 60+run%150)
		for i := range data {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			data[i] = byte(x)
		}
		var last key
		var lastOpen bool
		var s *Session
		current := func() (key, bool) {
			m, k, i, ok := s.Run().Block()
			return key{m, k, i}, ok
		}
		s = NewSession(HandlerFunc(func(ev *Event) error {
			cur, ok := current()
			switch ev.Kind {
			case KindTextDelta, KindThinkingDelta, KindTextRevision, KindThinkingRevision:
				kind := KindTextDelta
				if ev.Kind == KindThinkingDelta || ev.Kind == KindThinkingRevision {
					kind = KindThinkingDelta
				}
				last, lastOpen = key{ev.Message, kind, ev.Block}, true
				if !ok || cur != last {
					t.Fatalf("text of %v: the current block is %v (%v)", last, cur, ok)
				}
			case KindBlockStop:
				k := key{ev.Message, ev.BlockKind, ev.Block}
				if ok && cur == k {
					t.Fatalf("block.stop of %v: still the current block", k)
				}
				if k == last {
					lastOpen = false
				}
			}
			return nil
		}), Options{})
		ref := newReference()
		for i, n := 0, 0; i < len(data) && n < 200; n++ {
			ev, mode := genEvent(ref, data, &i)
			ref.step(&ev, mode)
			if err := s.PushAs(mode, &ev); err != nil {
				t.Fatal(err)
			}
			if cur, ok := current(); ok != lastOpen || ok && cur != last {
				t.Fatalf("event %d: the current block is %v (%v), want %v (%v)", n, cur, ok, last, lastOpen)
			}
		}
	}
}
