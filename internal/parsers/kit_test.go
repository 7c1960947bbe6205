package parsers

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// record is an Emit that writes each event it gets, with the way it was
// handed over, as one line.
type record struct{ lines []string }

func (r *record) emit() Emit {
	return EmitFunc(func(mode streaming.Mode, ev *streaming.Event) error {
		r.lines = append(r.lines, fmt.Sprintf("%s %s agent=%s msg=%s role=%s parent=%s block=%d text=%q type=%s level=%s time=%d",
			mode, ev.Kind, ev.Agent, ev.Message, ev.Role, ev.Parent, ev.Block, ev.Text, ev.Type, ev.Level, ev.Time.Unix()))
		return nil
	})
}

func TestOut(t *testing.T) {
	var r record
	o := Out{Emit: r.emit(), Agent: "qwen", Time: time.Unix(7, 0)}
	m := Msg{ID: "m1", Role: streaming.RoleAssistant, Parent: "task1"}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(o.Message(m, streaming.KindTextDelta, "whole"))
	must(o.Message(m, streaming.KindTextDelta, "")) // nothing
	must(o.Text(m, streaming.KindThinkingDelta, 2, "more", streaming.Snapshot))
	must(o.Text(m, streaming.KindThinkingDelta, 2, "", streaming.Snapshot)) // nothing
	must(o.Status("  ", streaming.LevelInfo))                               // nothing
	must(o.Status("retrying", streaming.LevelWarning))
	must(o.Unknown("new_thing", `{"type":"new_thing"}`))
	ev := o.New(streaming.KindUsage)
	ev.Usage = &streaming.Usage{InputTokens: 1}
	must(o.Push())
	ev = o.New(streaming.KindTextDelta)
	ev.Message, ev.Text, ev.Time = "m2", "again", time.Unix(9, 0) // its own time is kept
	must(o.Restate())
	must(o.Blocks(Msg{ID: "u1", Role: streaming.RoleUser}, "a", ""))
	want := []string{
		`delta message.start agent=qwen msg=m1 role=assistant parent=task1 block=0 text="" type= level= time=7`,
		`final text.delta agent=qwen msg=m1 role=assistant parent=task1 block=0 text="whole" type= level= time=7`,
		`delta message.stop agent=qwen msg=m1 role=assistant parent=task1 block=0 text="" type= level= time=7`,
		`snapshot thinking.delta agent=qwen msg=m1 role=assistant parent=task1 block=2 text="more" type= level= time=7`,
		`delta status agent=qwen msg= role= parent= block=0 text="retrying" type= level=warning time=7`,
		`delta unknown agent=qwen msg= role= parent= block=0 text="{\"type\":\"new_thing\"}" type=new_thing level= time=7`,
		`delta usage agent=qwen msg= role= parent= block=0 text="" type= level= time=7`,
		`restatement text.delta agent=qwen msg=m2 role= parent= block=0 text="again" type= level= time=9`,
		`delta message.start agent=qwen msg=u1 role=user parent= block=0 text="" type= level= time=7`,
		`final text.delta agent=qwen msg=u1 role=user parent= block=0 text="a" type= level= time=7`,
		`delta message.stop agent=qwen msg=u1 role=user parent= block=0 text="" type= level= time=7`,
	}
	if got := strings.Join(r.lines, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

func TestIDs(t *testing.T) {
	var g IDs
	got := []string{g.Next("turn"), g.Next("tool"), g.At("perm", 12), LineID("msg", 4)}
	want := []string{"turn1", "tool2", "perm3@12", "msg@4"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ids %v, want %v", got, want)
	}
}

// TestTimeOf: epoch milliseconds and RFC 3339 of any fraction width are
// read; anything else is the zero time.
func TestTimeOf(t *testing.T) {
	t.Parallel()
	want := time.Date(2026, 11, 29, 3, 4, 5, 120_000_000, time.UTC)
	for in, ok := range map[string]bool{
		`1795921445120`: true, `"2026-11-29T03:04:05.12Z"`: true, `"2026-11-29T03:04:05.120000Z"`: true,
		`0`: false, `-5`: false, `"yesterday"`: false, `null`: false, `{}`: false,
	} {
		got := TimeOf(gjson.Parse(in))
		if ok && !got.Equal(want) || !ok && !got.IsZero() {
			t.Errorf("TimeOf(%s) = %v", in, got)
		}
	}
}

// TestTurns: a turn is due a result when the assistant had the last word
// with no call open (ok) or a record said why it failed; one still
// running is not; after a result the next turn is a run of its own.
func TestTurns(t *testing.T) {
	t.Parallel()
	var r record
	o := Out{Emit: r.emit()}
	var tr Turns
	if _, due := tr.Due(0); due {
		t.Error("no turn yet, and a result is due")
	}
	tr.Begin()
	tr.Answered = true
	if ok, due := tr.Due(1); ok || due {
		t.Error("a call is open, and the turn is due")
	}
	ok, due := tr.Due(0)
	if !ok || !due {
		t.Fatal("answered with no call open, and no result due")
	}
	if err := tr.Result(&o, ok); err != nil {
		t.Fatal(err)
	}
	if !tr.Resulted || tr.Active {
		t.Errorf("after its result: %+v", tr)
	}
	tr.Run()
	tr.Begin()
	tr.Failed = "interrupted"
	if ok, due := tr.Due(0); ok || !due {
		t.Error("a failed turn is not due a failing result")
	}
	if err := tr.Result(&o, false); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.lines, "\n"); strings.Count(got, "result") != 2 || tr.N != 1 {
		t.Errorf("results:\n%s\nturns %d", got, tr.N)
	}
}
