package streaming_test

import (
	"fmt"

	"github.com/agentfmt/agentfmt/streaming"
)

// Example shows the contract end to end: cumulative chunks (Snapshot)
// become deltas, a final frame (Final) that repeats them gives nothing, an
// exact repeat of a delta (Push) is genuine text, and a snapshot sent as a
// delta is cut to its new suffix.
func Example() {
	s := streaming.NewSession(streaming.HandlerFunc(func(ev *streaming.Event) error {
		switch ev.Kind {
		case streaming.KindTextDelta, streaming.KindToolOutputDelta:
			fmt.Printf("%s %q\n", ev.Kind, ev.Text)
		case streaming.KindToolEnd:
			fmt.Printf("%s %s %q\n", ev.Kind, ev.Status, ev.Output)
		}
		return nil
	}), streaming.Options{})
	const rule = "|----------|----------|---------|\n" // 34 bytes
	steps := []struct {
		send func(*streaming.Event) error
		ev   streaming.Event
	}{
		{s.Push, streaming.Event{Kind: streaming.KindSessionStart, SessionID: "run-1"}},
		{s.Snapshot, streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Text: "Hello"}},
		{s.Snapshot, streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Text: "Hello, world\n"}},
		{s.Final, streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Text: "Hello, world\n"}},
	}
	for _, ev := range []streaming.Event{
		{Kind: streaming.KindTextDelta, Message: "m2", Text: rule},
		{Kind: streaming.KindTextDelta, Message: "m2", Text: rule},
		{Kind: streaming.KindTextDelta, Message: "m2", Text: rule + rule + "| a |"},
		{Kind: streaming.KindToolStart, ID: "t1", Name: "Bash"},
		{Kind: streaming.KindToolOutputDelta, ID: "t1", Text: "waiting\n"},
		{Kind: streaming.KindToolOutputDelta, ID: "t1", Text: "waiting\n"},
		{Kind: streaming.KindToolEnd, ID: "t1"},
	} {
		steps = append(steps, struct {
			send func(*streaming.Event) error
			ev   streaming.Event
		}{s.Push, ev})
	}
	for _, st := range steps {
		if err := st.send(&st.ev); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println("repaired:", s.Stats().SnapshotAsDelta)
	// Output:
	// text.delta "Hello"
	// text.delta ", world\n"
	// text.delta "|----------|----------|---------|\n"
	// text.delta "|----------|----------|---------|\n"
	// text.delta "| a |"
	// tool.output.delta "waiting\n"
	// tool.output.delta "waiting\n"
	// tool.end ok "waiting\nwaiting\n"
	// repaired: 1
}
