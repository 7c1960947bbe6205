package streaming

import (
	"strconv"
	"strings"
	"testing"
)

var discard = HandlerFunc(func(*Event) error { return nil })

// deltaSession is a session with one open top-level assistant message
// whose text block (and the run's answer) already hold a megabyte and
// have room for another 256 KB: pushing small deltas appends without
// growing anything.
func deltaSession(t testing.TB) (*Session, *Event) {
	s := NewSession(discard, Options{})
	must(t, s.Push(&Event{Kind: KindSessionStart, SessionID: "s"}))
	must(t, s.Push(&Event{Kind: KindMessageStart, Message: "msg_1", Role: RoleAssistant}))
	ev := &Event{Kind: KindTextDelta, Message: "msg_1", Role: RoleAssistant}
	ev.Text = strings.Repeat("x", 1<<20)
	must(t, s.Push(ev))
	ev.Text = "y" // grows the block and the answer by a quarter
	must(t, s.Push(ev))
	ev.Text = "the build passes now "
	return s, ev
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestDeltaAllocatesNothing: a text delta through Session.Push (the
// commonest event of a streamed answer) allocates nothing: the scratch
// event is reused and the text is appended in place.
func TestDeltaAllocatesNothing(t *testing.T) {
	s, ev := deltaSession(t)
	allocs := testing.AllocsPerRun(1000, func() {
		if err := s.Push(ev); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a text delta allocates %v times", allocs)
	}
	// A thinking delta and a tool output delta too.
	must(t, s.Push(&Event{Kind: KindToolStart, ID: "toolu_1", Name: "Bash"}))
	out := &Event{Kind: KindToolOutputDelta, ID: "toolu_1", Text: strings.Repeat("o", 1<<20)}
	must(t, s.Push(out))
	out.Text = "z"
	must(t, s.Push(out))
	out.Text = "line of output\n"
	if allocs := testing.AllocsPerRun(1000, func() { must(t, s.Push(out)) }); allocs != 0 {
		t.Errorf("a tool output delta allocates %v times", allocs)
	}
}

// BenchmarkSessionDelta is the session alone on text deltas: messages of
// 500 deltas (about 10 KB of text each).
func BenchmarkSessionDelta(b *testing.B) {
	s := NewSession(discard, Options{})
	must(b, s.Push(&Event{Kind: KindSessionStart, SessionID: "s"}))
	ev := &Event{Kind: KindTextDelta, Role: RoleAssistant, Text: "the build passes now "}
	ids := make([]string, 64)
	for i := range ids {
		ids[i] = "msg_" + strconv.Itoa(i)
	}
	b.SetBytes(int64(len(ev.Text)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if n%500 == 0 {
			if n > 0 {
				must(b, s.Push(&Event{Kind: KindMessageStop, Message: ev.Message}))
			}
			ev.Message = ids[n/500%len(ids)] + "." + strconv.Itoa(n)
			must(b, s.Push(&Event{Kind: KindMessageStart, Message: ev.Message, Role: RoleAssistant}))
		}
		n++
		if err := s.Push(ev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSessionTurn is a whole streamed turn through the session: a
// message of 40 text deltas, its final frame (dropped as a duplicate), two
// tool calls with their output, and the result every 20 turns.
func BenchmarkSessionTurn(b *testing.B) {
	s := NewSession(discard, Options{})
	words := strings.Fields("the function returns an error when the input is empty so we check it first and then update the test")
	var full strings.Builder
	for i := 0; i < 40; i++ {
		full.WriteString(words[i%len(words)] + " ")
	}
	text := full.String()
	var events []Event
	b.ReportAllocs()
	turn := 0
	for b.Loop() {
		turn++
		id := "msg_" + strconv.Itoa(turn)
		events = events[:0]
		if turn%20 == 1 {
			events = append(events, Event{Kind: KindSessionStart, SessionID: "s"})
		}
		events = append(events, Event{Kind: KindMessageStart, Message: id, Role: RoleAssistant})
		for i, w := 0, 0; i < 40; i++ {
			n := len(words[i%len(words)]) + 1
			events = append(events, Event{Kind: KindTextDelta, Message: id, Role: RoleAssistant, Text: text[w : w+n]})
			w += n
		}
		final := len(events)
		events = append(events, Event{Kind: KindTextDelta, Message: id, Role: RoleAssistant, Text: text})
		for k := 0; k < 2; k++ {
			tid := id + "_t" + strconv.Itoa(k)
			events = append(events,
				Event{Kind: KindToolStart, ID: tid, Name: "Bash", Input: `{"command":"go test ./..."}`},
				Event{Kind: KindToolEnd, ID: tid, Status: ToolOK, Output: "ok  \tpkg\t0.1s\n"})
		}
		events = append(events, Event{Kind: KindMessageStop, Message: id})
		if turn%20 == 0 {
			events = append(events, Event{Kind: KindResult, OK: true})
		}
		for i := range events {
			push := s.Push
			if i == final {
				push = s.Final
			}
			if err := push(&events[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkSessionManyOpenTools starts 20 000 tool calls and then ends
// them in start order: ending one costs the same however many are open
// (docs/performance.md: what a slice of open calls cost).
func BenchmarkSessionManyOpenTools(b *testing.B) {
	const n = 20000
	ids := make([]string, n)
	for i := range ids {
		ids[i] = "call_" + strconv.Itoa(i)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := NewSession(discard, Options{})
		for _, id := range ids {
			must(b, s.Push(&Event{Kind: KindToolStart, ID: id, Name: "Read"}))
		}
		for _, id := range ids {
			must(b, s.Push(&Event{Kind: KindToolEnd, ID: id, Status: ToolOK}))
		}
	}
}
