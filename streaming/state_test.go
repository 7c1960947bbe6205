package streaming

import (
	"reflect"
	"testing"
)

// stateUser is a handler that reads the session's state (fn, at each event).
type stateUser struct {
	st State
	fn func(u *stateUser, ev *Event)
}

func (u *stateUser) UseState(st State) { u.st = st }
func (u *stateUser) Handle(ev *Event) error {
	if u.fn != nil {
		u.fn(u, ev)
	}
	return nil
}

// TestState: a handler that reads the session's state finds the open tool
// calls there, with what their start said, their depth, their output so
// far and its own mark, until the Handle of their tool.end, and in the
// order they started.
func TestState(t *testing.T) {
	t.Parallel()
	u := &stateUser{}
	s := NewSession(u, Options{})
	if u.st == nil {
		t.Fatal("NewSession did not hand the state to a StateUser")
	}
	var marks []any
	u.fn = func(u *stateUser, ev *Event) {
		switch ev.Kind {
		case KindToolStart:
			c := u.st.Call(ev.ID)
			if c == nil || c.Name != ev.Name || c.Subject != ev.Subject || c.Input != ev.Input {
				t.Fatalf("tool.start %s: call %+v", ev.ID, c)
			}
			c.Mark = "mark " + ev.ID
		case KindToolEnd:
			c := u.st.Call(ev.ID)
			if c == nil {
				t.Fatalf("tool.end %s: the call is gone during its Handle", ev.ID)
			}
			marks = append(marks, c.Mark)
			if ev.ID == "edit" && (len(c.Edits) != 1 || c.Edits[0].Path != "a.go") {
				t.Errorf("tool.end %s: the start's edits %+v", ev.ID, c.Edits)
			}
		}
	}
	for _, ev := range []Event{
		{Kind: KindToolStart, ID: "task", Name: "Task", Subject: "review"},
		{Kind: KindToolStart, ID: "edit", Name: "Edit", Parent: "task", Subject: "a.go", Input: `{"file_path":"a.go"}`,
			Edits: []FileEdit{{Path: "a.go", Op: EditModify, Old: "a", New: "b"}}},
		{Kind: KindToolOutputDelta, ID: "edit", Text: "line one\n"},
		{Kind: KindToolOutputDelta, ID: "edit", Text: "line two\n"},
		{Kind: KindToolStart, ID: "grep", Name: "Grep", Parent: "nowhere"},
	} {
		if err := s.Push(&ev); err != nil {
			t.Fatal(err)
		}
	}
	var order []string
	var depth []int
	for _, c := range s.Calls() {
		order, depth = append(order, c.ID), append(depth, c.Depth)
	}
	if !reflect.DeepEqual(order, []string{"task", "edit", "grep"}) || !reflect.DeepEqual(depth, []int{1, 2, 2}) {
		t.Errorf("calls %v depths %v", order, depth)
	}
	c := s.Call("edit")
	if c.Output() != "line one\nline two\n" || c.OutputLen() != 18 || c.OutputTail(9) != "line two\n" || c.OutputTail(100) != c.Output() {
		t.Errorf("output %q, tail %q", c.Output(), c.OutputTail(9))
	}
	if err := s.Push(&Event{Kind: KindToolEnd, ID: "edit"}); err != nil {
		t.Fatal(err)
	}
	if s.Call("edit") != nil {
		t.Error("the call is still open after its tool.end")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(marks, []any{"mark edit", "mark task", "mark grep"}) || len(s.Calls()) != 0 {
		t.Errorf("marks at the ends %v, %d open", marks, len(s.Calls()))
	}
}

// TestRepeatsAnswer: a call whose output is the last message of its
// subagent (white space around it aside) says so at its tool.end; an
// output that says more, or a call with no subagent text, does not.
func TestRepeatsAnswer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, last, output string
		want               bool
	}{
		{"the same answer", "Totals are float64 sums.", "Totals are float64 sums.\n", true},
		{"more than the answer", "Totals are float64 sums.", "Totals are float64 sums.\nagentId: a1", false},
		{"an earlier message", "Done.", "Looking.", false},
		{"the only message", "", "Looking.", true},
		{"no subagent text", "-", "Totals.", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			u := &stateUser{}
			s := NewSession(u, Options{})
			var got *bool
			u.fn = func(u *stateUser, ev *Event) {
				if ev.Kind == KindToolEnd && ev.ID == "task" {
					r := u.st.Call("task").RepeatsAnswer
					got = &r
				}
			}
			evs := []Event{{Kind: KindToolStart, ID: "task", Name: "Task"}}
			if c.last != "-" {
				evs = append(evs,
					Event{Kind: KindMessageStart, Message: "m1", Role: RoleAssistant, Parent: "task"},
					Event{Kind: KindTextDelta, Message: "m1", Parent: "task", Text: "Looking."},
					Event{Kind: KindMessageStop, Message: "m1", Parent: "task"})
			}
			if c.last != "" && c.last != "-" {
				evs = append(evs,
					Event{Kind: KindMessageStart, Message: "m2", Role: RoleAssistant, Parent: "task"},
					Event{Kind: KindTextDelta, Message: "m2", Parent: "task", Text: c.last},
					Event{Kind: KindMessageStop, Message: "m2", Parent: "task"})
			}
			evs = append(evs, Event{Kind: KindToolEnd, ID: "task", Output: c.output})
			for _, ev := range evs {
				if err := s.Push(&ev); err != nil {
					t.Fatal(err)
				}
			}
			if got == nil {
				t.Fatal("no tool.end")
			}
			if *got != c.want {
				t.Errorf("RepeatsAnswer %v, want %v", *got, c.want)
			}
		})
	}
}
