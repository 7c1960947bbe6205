package streaming

import (
	"reflect"
	"testing"
)

// The session says when a run ends and when another begins: a follower
// of a log reads it instead of watching the events itself. A run that
// begins without a session.start (a second "claude -p" appended) counts.
func TestRunEndedTold(t *testing.T) {
	t.Parallel()
	var told []bool
	s := NewSession(HandlerFunc(func(*Event) error { return nil }), Options{RunEnded: func(e bool) { told = append(told, e) }})
	for _, ev := range []Event{
		{Kind: KindSessionStart, SessionID: "a"},
		{Kind: KindMessageStart, Message: "m1", Role: RoleAssistant},
		{Kind: KindTextDelta, Message: "m1", Text: "one"},
		{Kind: KindResult, OK: true},
		{Kind: KindMessageStart, Message: "m2", Role: RoleAssistant}, // another run, no session.start
		{Kind: KindResult, OK: true},
		{Kind: KindSessionStart, SessionID: "b"},
	} {
		if err := s.Push(&ev); err != nil {
			t.Fatal(err)
		}
	}
	if want := []bool{false, true, false, true, false}; !reflect.DeepEqual(told, want) {
		t.Errorf("told %v, want %v", told, want)
	}
}
