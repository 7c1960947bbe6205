package streaming_test

import (
	"fmt"

	"github.com/agentfmt/agentfmt/streaming"
)

// Example shows the contract end to end: cumulative chunks become deltas,
// a final frame that repeats them gives nothing, an exact repeat of a
// delta is genuine text, and a snapshot sent as a delta is cut to its new
// suffix.
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
	for _, ev := range []streaming.Event{
		{Kind: streaming.KindSessionStart, SessionID: "run-1"},
		{Kind: streaming.KindTextDelta, Message: "m1", Mode: streaming.Snapshot, Text: "Hello"},
		{Kind: streaming.KindTextDelta, Message: "m1", Mode: streaming.Snapshot, Text: "Hello, world\n"},
		{Kind: streaming.KindTextDelta, Message: "m1", Mode: streaming.Final, Text: "Hello, world\n"},
		{Kind: streaming.KindTextDelta, Message: "m2", Text: rule},
		{Kind: streaming.KindTextDelta, Message: "m2", Text: rule},
		{Kind: streaming.KindTextDelta, Message: "m2", Text: rule + rule + "| a |"},
		{Kind: streaming.KindToolStart, ID: "t1", Name: "Bash"},
		{Kind: streaming.KindToolOutputDelta, ID: "t1", Text: "waiting\n"},
		{Kind: streaming.KindToolOutputDelta, ID: "t1", Text: "waiting\n"},
		{Kind: streaming.KindToolEnd, ID: "t1"},
	} {
		if err := s.Push(&ev); err != nil {
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
