package render

import (
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// feed hands events to h through a session, as the command does: a
// renderer reads the session's output and its state (the open tool calls
// keep what it made of them). The session is not closed: Finish comes
// after, as at the end of a run or of an interrupted one.
func feed(t testing.TB, h streaming.Handler, evs []streaming.Event) *streaming.Session {
	t.Helper()
	s := streaming.NewSession(h, streaming.Options{})
	for i := range evs {
		ev := evs[i]
		if err := s.Push(&ev); err != nil {
			t.Fatal(err)
		}
	}
	return s
}
