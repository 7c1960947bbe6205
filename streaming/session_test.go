package streaming

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// Short constructors for the events a parser pushes. A text-like event
// that a parser hands over as a snapshot or a final carries that mode in
// its Type (which text-like events do not use) in these tests: send hands
// it to Snapshot or Final, Type cleared.

func withMode(ev Event, m Mode) Event {
	if m != Delta {
		ev.Type = m.String()
	}
	return ev
}

// send pushes ev to s as its parser would: Push, Snapshot or Final.
func send(s *Session, ev *Event) error {
	e := *ev
	m := Delta
	if e.Kind.IsText() || e.Kind == KindToolOutputDelta {
		switch e.Type {
		case "snapshot":
			m = Snapshot
		case "final":
			m = Final
		case "restatement":
			m = Restate
		}
		e.Type = ""
	}
	return s.PushAs(m, &e)
}

func msgStart(id string) Event {
	return Event{Kind: KindMessageStart, Message: id, Role: RoleAssistant}
}
func msgStop(id string) Event { return Event{Kind: KindMessageStop, Message: id} }

func txt(msg string, block int, text string, mode Mode) Event {
	return withMode(Event{Kind: KindTextDelta, Message: msg, Block: block, Text: text}, mode)
}
func delta(msg string, block int, text string) Event { return txt(msg, block, text, Delta) }
func snap(msg string, block int, text string) Event  { return txt(msg, block, text, Snapshot) }
func final(msg string, block int, text string) Event { return txt(msg, block, text, Final) }

// part is a text event of a block the agent names (Event.Part).
func part(msg, id, text string, mode Mode) Event {
	return withMode(Event{Kind: KindTextDelta, Message: msg, Part: id, Text: text}, mode)
}

func think(msg string, block int, text string, mode Mode) Event {
	return withMode(Event{Kind: KindThinkingDelta, Message: msg, Block: block, Text: text}, mode)
}

func toolStart(id, name string) Event { return Event{Kind: KindToolStart, ID: id, Name: name} }
func toolOut(id, text string, mode Mode) Event {
	return withMode(Event{Kind: KindToolOutputDelta, ID: id, Text: text}, mode)
}
func toolEnd(id string, st ToolStatus, output string) Event {
	return Event{Kind: KindToolEnd, ID: id, Status: st, Output: output}
}
func result(ok bool, text string) Event { return Event{Kind: KindResult, OK: ok, Text: text} }
func sessStart(id string) Event         { return Event{Kind: KindSessionStart, SessionID: id} }

// short renders an output event compactly for table comparisons.
func short(e *Event) string {
	switch e.Kind {
	case KindMessageStart:
		return "start " + e.Message
	case KindMessageStop:
		return "stop " + e.Message
	case KindTextDelta, KindThinkingDelta, KindTextRevision, KindThinkingRevision:
		return fmt.Sprintf("%s %s/%d %q", e.Kind, e.Message, e.Block, e.Text)
	case KindToolStart:
		return fmt.Sprintf("tool.start %s %s", e.ID, e.Name)
	case KindToolOutputDelta:
		return fmt.Sprintf("tool.out %s %q", e.ID, e.Text)
	case KindToolEnd:
		return fmt.Sprintf("tool.end %s %s %q", e.ID, e.Status, e.Output)
	case KindResult:
		return fmt.Sprintf("result %v %q", e.OK, e.Text)
	case KindNotice:
		return "notice"
	case KindBlockStop:
		if e.BlockKind == KindThinkingDelta {
			return fmt.Sprintf("block.stop %s/%d thinking", e.Message, e.Block)
		}
		return fmt.Sprintf("block.stop %s/%d", e.Message, e.Block)
	}
	return string(e.Kind)
}

// recorder runs events through a session and keeps copies of its output.
type recorder struct {
	withStops bool
	out       []Event
	reports   []string
	sess      *Session
}

func newRecorder(strict bool) *recorder {
	r := &recorder{}
	r.sess = NewSession(HandlerFunc(func(ev *Event) error {
		r.out = append(r.out, *ev)
		return nil
	}), Options{Strict: strict, Report: func(line int, msg string) {
		r.reports = append(r.reports, fmt.Sprintf("line %d: %s", line, msg))
	}})
	return r
}

// push sends the events, numbering their lines 1, 2, … and stops at the
// first error.
func (r *recorder) push(evs ...Event) error {
	for i := range evs {
		ev := evs[i]
		if ev.Line == 0 {
			ev.Line = i + 1
		}
		if err := send(r.sess, &ev); err != nil {
			return err
		}
	}
	return nil
}

// shorts is the output, compactly; block.stop events only when
// withStops is set (TestBlockStop has them; the other tables leave them
// out, to read as the rule they test).
func (r *recorder) shorts() []string {
	s := make([]string, 0, len(r.out))
	for i := range r.out {
		if r.out[i].Kind != KindBlockStop || r.withStops {
			s = append(s, short(&r.out[i]))
		}
	}
	return s
}

func (r *recorder) text(kind Kind) string {
	var b strings.Builder
	for _, e := range r.out {
		if e.Kind == kind {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

func pushAll(t *testing.T, closeAtEnd bool, evs ...Event) *recorder {
	t.Helper()
	r := newRecorder(false)
	if err := r.push(evs...); err != nil {
		t.Fatalf("push: %v", err)
	}
	if closeAtEnd {
		if err := r.sess.Close(); err != nil {
			t.Fatalf("close: %v", err)
		}
	}
	return r
}

func same(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSessionContract has one case per rule of the contract (the package
// documentation; and the session behaviours the parsers rely on). Every
// case would fail without the behaviour it names.
func TestSessionContract(t *testing.T) {
	t.Parallel()
	const long = "The quick brown fox jumps over the lazy dog." // 44 bytes
	cases := []struct {
		name  string
		in    []Event
		want  []string
		stats Stats
	}{
		{
			name: "deltas pass through",
			in:   []Event{msgStart("m1"), delta("m1", 0, "Hel"), delta("m1", 0, "lo"), delta("m1", 0, "")},
			want: []string{"start m1", `text.delta m1/0 "Hel"`, `text.delta m1/0 "lo"`},
		},
		{
			name: "snapshot becomes its new suffix",
			in:   []Event{msgStart("m1"), snap("m1", 0, "Hel"), snap("m1", 0, "Hello"), snap("m1", 0, "Hello, world")},
			want: []string{"start m1", `text.delta m1/0 "Hel"`, `text.delta m1/0 "lo"`, `text.delta m1/0 ", world"`},
		},
		{
			name:  "final equal to what was streamed gives nothing",
			in:    []Event{msgStart("m1"), delta("m1", 0, "Hello"), final("m1", 0, "Hello")},
			want:  []string{"start m1", `text.delta m1/0 "Hello"`},
			stats: Stats{Duplicates: 1},
		},
		{
			name: "final extending what was streamed gives the suffix",
			in:   []Event{msgStart("m1"), delta("m1", 0, "Hel"), final("m1", 0, "Hello")},
			want: []string{"start m1", `text.delta m1/0 "Hel"`, `text.delta m1/0 "lo"`},
		},
		{
			name:  "older shorter snapshot gives nothing",
			in:    []Event{msgStart("m1"), snap("m1", 0, "Hello"), snap("m1", 0, "Hel")},
			want:  []string{"start m1", `text.delta m1/0 "Hello"`},
			stats: Stats{Duplicates: 1},
		},
		{
			name:  "rewrite gives a revision",
			in:    []Event{msgStart("m1"), delta("m1", 0, "Hello"), final("m1", 0, "Goodbye")},
			want:  []string{"start m1", `text.delta m1/0 "Hello"`, `text.revision m1/0 "Goodbye"`},
			stats: Stats{Revisions: 1},
		},
		{
			name:  "thinking rewrite gives a thinking revision",
			in:    []Event{think("m1", 0, "plan A", Snapshot), think("m1", 0, "plan B", Snapshot)},
			want:  []string{"start m1", `thinking.delta m1/0 "plan A"`, `thinking.revision m1/0 "plan B"`},
			stats: Stats{Revisions: 1, Implicit: 1},
		},
		{
			name:  "snapshot sent as a delta keeps only the new suffix",
			in:    []Event{msgStart("m1"), delta("m1", 0, long), delta("m1", 0, long+" And more.")},
			want:  []string{"start m1", fmt.Sprintf("text.delta m1/0 %q", long), `text.delta m1/0 " And more."`},
			stats: Stats{SnapshotAsDelta: 1},
		},
		{
			name: "an exact repeat of the block is a genuine delta",
			in:   []Event{msgStart("m1"), delta("m1", 0, long), delta("m1", 0, long), think("m1", 0, long, Delta), think("m1", 0, long, Delta)},
			want: []string{"start m1", fmt.Sprintf("text.delta m1/0 %q", long), fmt.Sprintf("text.delta m1/0 %q", long),
				fmt.Sprintf("thinking.delta m1/0 %q", long), fmt.Sprintf("thinking.delta m1/0 %q", long)},
		},
		{
			name: "a 35-byte table rule streamed three times is three rules",
			in: []Event{msgStart("m1"), delta("m1", 0, "|-----------|-----------|---------|"),
				delta("m1", 0, "|-----------|-----------|---------|"), delta("m1", 0, "|-----------|-----------|---------|")},
			want: []string{"start m1", `text.delta m1/0 "|-----------|-----------|---------|"`,
				`text.delta m1/0 "|-----------|-----------|---------|"`, `text.delta m1/0 "|-----------|-----------|---------|"`},
		},
		{
			name: "tool output is never repaired",
			in: []Event{toolStart("t1", "Bash"), toolOut("t1", "waiting for postgres on localhost:5432...\n", Delta),
				toolOut("t1", "waiting for postgres on localhost:5432...\n", Delta),
				toolOut("t1", "waiting for postgres on localhost:5432...\nwaiting for postgres on localhost:5432...\nready\n", Delta)},
			want: []string{"tool.start t1 Bash", `tool.out t1 "waiting for postgres on localhost:5432...\n"`,
				`tool.out t1 "waiting for postgres on localhost:5432...\n"`,
				`tool.out t1 "waiting for postgres on localhost:5432...\nwaiting for postgres on localhost:5432...\nready\n"`},
		},
		{
			name: "identity is scoped to a run: the same run twice is shown twice",
			in: []Event{sessStart("s1"), msgStart("m1"), delta("m1", 0, "hi"), msgStop("m1"), toolStart("t1", "Bash"), toolEnd("t1", ToolOK, "x"),
				sessStart("s1"), msgStart("m1"), final("m1", 0, "hi"), msgStop("m1"), toolStart("t1", "Bash"), toolEnd("t1", ToolOK, "x")},
			want: []string{"session.start", "start m1", `text.delta m1/0 "hi"`, "stop m1", "tool.start t1 Bash", `tool.end t1 ok "x"`,
				"notice", "session.start", "start m1", `text.delta m1/0 "hi"`, "stop m1", "tool.start t1 Bash", `tool.end t1 ok "x"`},
			stats: Stats{Runs: 2},
		},
		{
			name: "short repeats are genuine deltas",
			in: []Event{msgStart("m1"), delta("m1", 0, "="), delta("m1", 0, "="), delta("m1", 0, "="),
				delta("m1", 0, "="), delta("m1", 0, "="), delta("m1", 0, "="), delta("m1", 0, "=")},
			want: []string{"start m1", `text.delta m1/0 "="`, `text.delta m1/0 "="`, `text.delta m1/0 "="`,
				`text.delta m1/0 "="`, `text.delta m1/0 "="`, `text.delta m1/0 "="`, `text.delta m1/0 "="`},
		},
		{
			name: "31 repeated bytes are still a genuine delta",
			in:   []Event{msgStart("m1"), delta("m1", 0, long[:31]), delta("m1", 0, long[:31])},
			want: []string{"start m1", fmt.Sprintf("text.delta m1/0 %q", long[:31]), fmt.Sprintf("text.delta m1/0 %q", long[:31])},
		},
		{
			name:  "32 repeated bytes are a snapshot",
			in:    []Event{msgStart("m1"), delta("m1", 0, long[:32]), delta("m1", 0, long[:33])},
			want:  []string{"start m1", fmt.Sprintf("text.delta m1/0 %q", long[:32]), fmt.Sprintf("text.delta m1/0 %q", long[32:33])},
			stats: Stats{SnapshotAsDelta: 1},
		},
		{
			name: "block indexes are scoped to their message",
			in: []Event{msgStart("m1"), delta("m1", 0, long), msgStop("m1"),
				msgStart("m2"), final("m2", 0, long), msgStop("m2"),
				msgStart("m3"), delta("m3", 0, long+"!"), msgStop("m3")},
			want: []string{"start m1", fmt.Sprintf("text.delta m1/0 %q", long), "stop m1",
				"start m2", fmt.Sprintf("text.delta m2/0 %q", long), "stop m2",
				"start m3", fmt.Sprintf("text.delta m3/0 %q", long+"!"), "stop m3"},
		},
		{
			name:  "blocks of one message are separate",
			in:    []Event{msgStart("m1"), delta("m1", 0, "one"), delta("m1", 1, "two"), final("m1", 0, "one"), final("m1", 1, "two")},
			want:  []string{"start m1", `text.delta m1/0 "one"`, `text.delta m1/1 "two"`},
			stats: Stats{Duplicates: 2},
		},
		{
			name:  "text and thinking of the same index are separate",
			in:    []Event{msgStart("m1"), think("m1", 0, "hmm", Delta), delta("m1", 0, "hmm"), final("m1", 0, "hmm")},
			want:  []string{"start m1", `thinking.delta m1/0 "hmm"`, `text.delta m1/0 "hmm"`},
			stats: Stats{Duplicates: 1},
		},
		{
			name:  "a delta with no start opens its message (stream joined mid-way)",
			in:    []Event{delta("m9", 2, "…and so on"), msgStop("m9")},
			want:  []string{"start m9", `text.delta m9/2 "…and so on"`, "stop m9"},
			stats: Stats{Implicit: 1},
		},
		{
			name:  "message started twice",
			in:    []Event{msgStart("m1"), delta("m1", 0, "a"), msgStart("m1"), delta("m1", 0, "b")},
			want:  []string{"start m1", `text.delta m1/0 "a"`, `text.delta m1/0 "b"`},
			stats: Stats{Duplicates: 1},
		},
		{
			name:  "message stopped twice",
			in:    []Event{msgStart("m1"), msgStop("m1"), msgStop("m1")},
			want:  []string{"start m1", "stop m1"},
			stats: Stats{Duplicates: 1},
		},
		{
			name: "final for a finished message is dropped",
			in: []Event{msgStart("m1"), delta("m1", 0, "Hello"), msgStop("m1"),
				final("m1", 0, "Hello"), snap("m1", 0, "Hello"), final("m1", 0, "Something else")},
			want:  []string{"start m1", `text.delta m1/0 "Hello"`, "stop m1"},
			stats: Stats{Duplicates: 3},
		},
		{
			name: "a block a stopped message did not show is shown, in the message reopened and stopped again",
			in: []Event{msgStart("m1"), delta("m1", 0, "Hello"), msgStop("m1"),
				final("m1", 1, "Late"), final("m1", 1, "Late"), final("m1", 0, "Hello"), think("m1", 0, "", Final)},
			want:  []string{"start m1", `text.delta m1/0 "Hello"`, "stop m1", "start m1", `text.delta m1/1 "Late"`, "stop m1"},
			stats: Stats{Duplicates: 3, Implicit: 1},
		},
		{
			name: "parts are numbered in the order they come, and known again by their id",
			in: []Event{part("m1", "p-b", "B", Final), part("m1", "p-a", "A", Final), part("m1", "p-b", "b2", Final),
				part("m1", "p-a", "A", Final), msgStop("m1"), part("m1", "p-a", "A", Final), part("m1", "p-c", "C", Final),
				part("m1", "p-b", "", Final), delta("m1", 0, "x")},
			want: []string{"start m1", `text.delta m1/0 "B"`, `text.delta m1/1 "A"`, `text.revision m1/0 "b2"`, "stop m1",
				"start m1", `text.delta m1/2 "C"`, "stop m1", "start m1", `text.delta m1/0 "x"`},
			stats: Stats{Duplicates: 3, Implicit: 3, Revisions: 1},
		},
		{
			name: "tool started twice, ended twice",
			in: []Event{toolStart("t1", "Bash"), toolStart("t1", "Bash"), toolEnd("t1", ToolOK, "done"),
				toolEnd("t1", ToolError, "again"), toolStart("t1", "Bash"), toolOut("t1", "late", Delta)},
			want:  []string{"tool.start t1 Bash", `tool.end t1 ok "done"`},
			stats: Stats{Duplicates: 3}, // the second start updates the open call
		},
		{
			name:  "tool.end for an unknown id starts it implicitly",
			in:    []Event{{Kind: KindToolEnd, ID: "t7", Name: "Read", Output: "file"}},
			want:  []string{"tool.start t7 Read", `tool.end t7 ok "file"`},
			stats: Stats{Implicit: 1},
		},
		{
			name:  "tool output with no start starts it implicitly",
			in:    []Event{toolOut("t8", "x", Delta), toolEnd("t8", ToolOK, "")},
			want:  []string{"tool.start t8 tool", `tool.out t8 "x"`, `tool.end t8 ok "x"`},
			stats: Stats{Implicit: 1},
		},
		{
			name: "cumulative tool output becomes deltas and fills tool.end",
			in: []Event{toolStart("t1", "Bash"), toolOut("t1", "a\n", Snapshot), toolOut("t1", "a\nb\n", Snapshot),
				toolOut("t1", "a\nb\n", Snapshot), toolOut("t1", "a\nb\nc\n", Snapshot), toolEnd("t1", ToolOK, "")},
			want: []string{"tool.start t1 Bash", `tool.out t1 "a\n"`, `tool.out t1 "b\n"`, `tool.out t1 "c\n"`,
				`tool.end t1 ok "a\nb\nc\n"`},
			stats: Stats{Duplicates: 1},
		},
		{
			name: "tool.end keeps its own output",
			in:   []Event{toolStart("t1", "Bash"), toolOut("t1", "partial", Delta), toolEnd("t1", ToolError, "the whole output")},
			want: []string{"tool.start t1 Bash", `tool.out t1 "partial"`, `tool.end t1 error "the whole output"`},
		},
		{
			name: "tool.end without status is ok",
			in:   []Event{toolStart("t1", "Bash"), {Kind: KindToolEnd, ID: "t1"}},
			want: []string{"tool.start t1 Bash", `tool.end t1 ok ""`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := pushAll(t, false, c.in...)
			if got := r.shorts(); !same(got, c.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
			if got := r.sess.Stats(); got != c.stats {
				t.Errorf("stats %+v, want %+v", got, c.stats)
			}
		})
	}
}

func TestSnapshotAsDeltaReported(t *testing.T) {
	t.Parallel()
	const long = "0123456789abcdefghijklmnopqrstuvwxyz"
	r := newRecorder(false)
	err := r.push(msgStart("m1"), delta("m1", 0, long), Event{Kind: KindTextDelta, Message: "m1", Text: long + "+", Line: 42})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.reports) != 1 || !strings.HasPrefix(r.reports[0], "line 42: ") || !strings.Contains(r.reports[0], "snapshot") {
		t.Errorf("reports %q, want one about a snapshot on line 42", r.reports)
	}
	if got := r.text(KindTextDelta); got != long+"+" {
		t.Errorf("text %q", got)
	}
	if err := r.sess.Close(); err != nil {
		t.Fatal(err)
	}
	// The repair is visible once at the end, without --debug.
	var notices int
	for _, e := range r.out {
		if e.Kind == KindNotice && strings.Contains(e.Text, "snapshot-as-delta") {
			notices++
		}
	}
	if notices != 1 {
		t.Errorf("%d repair notices at close, want 1", notices)
	}
}

func TestSnapshotAsDeltaStrict(t *testing.T) {
	t.Parallel()
	const long = "0123456789abcdefghijklmnopqrstuvwxyz"
	for _, kind := range []Kind{KindTextDelta, KindThinkingDelta} {
		r := newRecorder(true)
		in := []Event{
			{Kind: kind, Message: "m1", ID: "t1", Text: long, Line: 5},
			{Kind: kind, Message: "m1", ID: "t1", Text: long + " more", Line: 6},
		}
		err := r.push(in...)
		var ce *ContractError
		if !errors.As(err, &ce) {
			t.Fatalf("%s: err %v, want a *ContractError", kind, err)
		}
		if ce.Line != 6 || ce.ExitCode() != 65 || !strings.HasPrefix(ce.Error(), "line 6: ") {
			t.Errorf("%s: error %q line %d code %d", kind, ce.Error(), ce.Line, ce.ExitCode())
		}
		if got := r.text(kind); got != long {
			t.Errorf("%s: text before the error %q", kind, got)
		}
	}
	// Strict leaves genuine repeats alone: short ones, exact repeats of
	// the block, and any tool output.
	r := newRecorder(true)
	if err := r.push(delta("m1", 0, "="), delta("m1", 0, "="), delta("m1", 0, "=")); err != nil {
		t.Fatalf("strict rejected genuine deltas: %v", err)
	}
	if got := r.text(KindTextDelta); got != "===" {
		t.Errorf("text %q", got)
	}
	r = newRecorder(true)
	if err := r.push(delta("m1", 0, long), delta("m1", 0, long), toolOut("t1", long, Delta), toolOut("t1", long+long+"!", Delta)); err != nil {
		t.Fatalf("strict rejected genuine repeats: %v", err)
	}
	if got := r.text(KindTextDelta); got != long+long {
		t.Errorf("text %q", got)
	}
	if got := r.text(KindToolOutputDelta); got != long+long+long+"!" {
		t.Errorf("tool output %q", got)
	}
}

func TestSevenEquals(t *testing.T) {
	t.Parallel()
	r := newRecorder(true)
	for i := 0; i < 7; i++ {
		if err := r.push(delta("m1", 0, "=")); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.text(KindTextDelta); got != "=======" {
		t.Errorf("got %q, want =======", got)
	}
}

func TestCloseEndsOpenWorkAsIncomplete(t *testing.T) {
	t.Parallel()
	r := pushAll(t, true, sessStart("s1"), msgStart("m1"), delta("m1", 0, "half a sent"),
		toolStart("t1", "Bash"), toolOut("t1", "building…", Delta))
	want := []string{"session.start", "start m1", `text.delta m1/0 "half a sent"`, "tool.start t1 Bash",
		`tool.out t1 "building…"`, "stop m1", `tool.end t1 incomplete "building…"`}
	if got := r.shorts(); !same(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if o, why := r.sess.Outcome(); o != Incomplete || why == "" {
		t.Errorf("outcome %s %q, want incomplete with a reason", o, why)
	}
	if n, err := len(r.out), r.sess.Close(); err != nil || len(r.out) != n {
		t.Errorf("second Close: %v, %d events", err, len(r.out)-n)
	}
}

func TestCloseWithoutAnything(t *testing.T) {
	t.Parallel()
	r := pushAll(t, true)
	if len(r.out) != 0 {
		t.Errorf("events from an empty stream: %q", r.shorts())
	}
	if o, _ := r.sess.Outcome(); o != Incomplete {
		t.Errorf("outcome %s", o)
	}
}

func TestOutcome(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		in     []Event
		want   Outcome
		reason string
	}{
		{"ok", []Event{sessStart("s"), result(true, "done")}, Success, ""},
		{"not ok", []Event{sessStart("s"), {Kind: KindResult, OK: false, Reason: "error_max_turns"}}, Failure, "error_max_turns"},
		{"no result", []Event{sessStart("s"), delta("m", 0, "x")}, Incomplete, "the stream ended before the run finished"},
		{"no session.start", []Event{result(true, "")}, Success, ""},
		{"two runs: failure then success", []Event{sessStart("a"), {Kind: KindResult, Reason: "boom"}, sessStart("b"), result(true, "")}, Success, ""},
		{"two runs: success then failure", []Event{sessStart("a"), result(true, ""), sessStart("b"), {Kind: KindResult, Reason: "boom"}}, Failure, "boom"},
		{"two runs: success then nothing", []Event{sessStart("a"), result(true, ""), sessStart("b"), delta("m", 0, "x")}, Incomplete, "the stream ended before the run finished"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := pushAll(t, true, c.in...)
			o, why := r.sess.Outcome()
			if o != c.want || why != c.reason {
				t.Errorf("outcome %s %q, want %s %q", o, why, c.want, c.reason)
			}
		})
	}
}

func TestNewRunClosesTheOldOne(t *testing.T) {
	t.Parallel()
	r := pushAll(t, true, sessStart("a"), msgStart("m1"), delta("m1", 0, "cut"), toolStart("t1", "Bash"), sessStart("b"),
		delta("m2", 0, "second run"), result(true, ""))
	want := []string{"session.start", "start m1", `text.delta m1/0 "cut"`, "tool.start t1 Bash",
		"stop m1", `tool.end t1 incomplete ""`, "notice", "session.start",
		"start m2", `text.delta m2/0 "second run"`, "stop m2", `result true "second run"`}
	if got := r.shorts(); !same(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if r.sess.Stats().Runs != 2 {
		t.Errorf("runs %d", r.sess.Stats().Runs)
	}
	if a := r.sess.FinalAnswer(); a != "second run" {
		t.Errorf("answer %q", a)
	}
}

func TestResultText(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		in     []Event
		want   []string // the events from the result on
		answer string
	}{
		{
			name: "empty result text is the last top-level assistant message",
			in: []Event{msgStart("m1"), delta("m1", 0, "first"), msgStop("m1"),
				msgStart("m2"), delta("m2", 0, "second"), msgStop("m2"),
				{Kind: KindMessageStart, Message: "u1", Role: RoleUser}, delta("u1", 0, "a user echo"), msgStop("u1"),
				{Kind: KindMessageStart, Message: "sub", Parent: "t1"}, delta("sub", 0, "a subagent"), msgStop("sub"),
				result(true, "")},
			want:   []string{`result true "second"`},
			answer: "second",
		},
		{
			name: "thinking is not the answer",
			in: []Event{msgStart("m1"), think("m1", 0, "pondering", Delta), delta("m1", 1, "the answer"),
				msgStop("m1"), msgStart("m2"), think("m2", 0, "more pondering", Delta), result(true, "")},
			want:   []string{"stop m2", `result true "the answer"`},
			answer: "the answer",
		},
		{
			name: "several text blocks of the last message",
			in: []Event{msgStart("m1"), delta("m1", 0, "part one"), delta("m1", 2, "part two"),
				result(true, "")},
			want:   []string{"stop m1", `result true "part one\n\npart two"`},
			answer: "part one\n\npart two",
		},
		{
			name: "a revised block of a multi-block answer",
			in: []Event{msgStart("m1"), delta("m1", 0, "Part one."), delta("m1", 1, "Part two."),
				final("m1", 0, "Part one, rewritten."), final("m1", 1, "Part two."), result(true, "")},
			want:   []string{"stop m1", `result true "Part one, rewritten.\n\nPart two."`},
			answer: "Part one, rewritten.\n\nPart two.",
		},
		{
			name: "result text never shown is shown once",
			in:   []Event{sessStart("s"), toolStart("t1", "Bash"), toolEnd("t1", ToolOK, ""), result(true, "All done.")},
			want: []string{"start result@4", `text.delta result@4/0 "All done."`, "stop result@4",
				`result true "All done."`},
			answer: "All done.",
		},
		{
			// Identity is per run (issue 27 item 4: "claude -p /cost" twice
			// into one log showed the second answer zero times).
			name: "two result-only runs show both answers",
			in:   []Event{result(true, "Cost: $0"), result(true, "Cost: $0")},
			want: []string{"start result@1", `text.delta result@1/0 "Cost: $0"`, "stop result@1", `result true "Cost: $0"`,
				"start result@2", `text.delta result@2/0 "Cost: $0"`, "stop result@2", `result true "Cost: $0"`},
			answer: "Cost: $0",
		},
		{
			name: "a run after a result without a session.start is a run of its own",
			in: []Event{msgStart("m1"), delta("m1", 0, "hi"), msgStop("m1"), toolStart("t1", "Bash"), toolEnd("t1", ToolOK, "x"),
				result(true, "hi"), msgStart("m1"), final("m1", 0, "hi"), msgStop("m1"), toolStart("t1", "Bash"),
				toolEnd("t1", ToolOK, "x"), result(true, "hi")},
			want: []string{`result true "hi"`, "start m1", `text.delta m1/0 "hi"`, "stop m1", "tool.start t1 Bash",
				`tool.end t1 ok "x"`, `result true "hi"`},
			answer: "hi",
		},
		{
			name: "what the finished run still sends after its result does not begin a run",
			in: []Event{toolStart("bg", "Bash"), msgStart("m1"), delta("m1", 0, "started"), msgStop("m1"), result(true, "started"),
				Event{Kind: KindStatus, Text: "task running"}, final("m1", 0, "started"), toolOut("bg", "tick", Delta),
				toolEnd("bg", ToolOK, "tick"), toolEnd("bg", ToolOK, "tick")},
			want:   []string{"stop m1", `result true "started"`, "status", `tool.out bg "tick"`, `tool.end bg ok "tick"`},
			answer: "started",
		},
		{
			// A Codex sub-agent thread outliving its parent's turn.
			name: "work under a call still running after the result does not begin a run",
			in: []Event{toolStart("spawn", "spawn_agent"), msgStart("m1"), delta("m1", 0, "started"), msgStop("m1"),
				result(true, "started"), Event{Kind: KindMessageStart, Message: "sub", Parent: "spawn", Role: RoleAssistant},
				Event{Kind: KindTextDelta, Message: "sub", Parent: "spawn", Text: "child done"}, msgStop("sub"),
				Event{Kind: KindToolStart, ID: "t2", Name: "Bash", Parent: "spawn"}, toolEnd("t2", ToolOK, ""), toolEnd("spawn", ToolOK, "")},
			want: []string{`result true "started"`, "start sub", `text.delta sub/0 "child done"`, "stop sub",
				"tool.start t2 Bash", `tool.end t2 ok ""`, `tool.end spawn ok ""`},
			answer: "started",
		},
		{
			name:   "result text already shown is not shown again",
			in:     []Event{msgStart("m1"), delta("m1", 0, "All done."), msgStop("m1"), result(true, "All done.")},
			want:   []string{`result true "All done."`},
			answer: "All done.",
		},
		{
			name: "truncated result text is completed",
			in: []Event{msgStart("m1"), delta("m1", 0, "First chunk. "), delta("m1", 0, "Second chunk."), msgStop("m1"),
				result(true, "First chunk. ")},
			want:   []string{`result true "First chunk. Second chunk."`},
			answer: "First chunk. Second chunk.",
		},
		{
			name: "a different result text wins",
			in: []Event{msgStart("m1"), delta("m1", 0, "Working on it."), msgStop("m1"),
				result(false, "Reached the turn limit")},
			want:   []string{`result false "Reached the turn limit"`},
			answer: "Reached the turn limit",
		},
		{
			name:   "a run without result: the answer is the last message",
			in:     []Event{msgStart("m1"), snap("m1", 0, "so far"), snap("m1", 0, "so far, so good")},
			want:   []string{"stop m1"},
			answer: "so far, so good",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := pushAll(t, true, c.in...)
			got := r.shorts()
			if len(got) < len(c.want) || !same(got[len(got)-len(c.want):], c.want) {
				t.Errorf("got\n  %s\nwant the tail\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
			if a := r.sess.FinalAnswer(); a != c.answer {
				t.Errorf("answer %q, want %q", a, c.answer)
			}
		})
	}
}

func TestOutputFieldsFilled(t *testing.T) {
	t.Parallel()
	r := pushAll(t, false, Event{Kind: KindMessageStart, Message: "sub", Parent: "task1", Role: RoleAssistant},
		Event{Kind: KindTextDelta, Message: "sub", Text: "x"}, Event{Kind: KindMessageStop, Message: "sub"},
		Event{Kind: KindToolStart, ID: "t1", Name: "Read", Parent: "task1"}, Event{Kind: KindToolEnd, ID: "t1"})
	for _, e := range r.out {
		if e.Parent != "task1" {
			t.Errorf("%s: parent %q", short(&e), e.Parent)
		}
	}
	if e := r.out[len(r.out)-1]; e.Name != "Read" {
		t.Errorf("tool.end name %q", e.Name)
	}
	if e := r.out[1]; e.Role != RoleAssistant {
		t.Errorf("text role %q", e.Role)
	}
}

func TestHandlerErrorStops(t *testing.T) {
	t.Parallel()
	boom := errors.New("closed pipe")
	s := NewSession(HandlerFunc(func(*Event) error { return boom }), Options{})
	for _, ev := range []Event{delta("m", 0, "x"), toolEnd("t", ToolOK, ""), result(true, "never shown"), sessStart("s")} {
		if err := send(s, &ev); !errors.Is(err, boom) {
			t.Errorf("%s: err %v", ev.Kind, err)
		}
	}
	s = NewSession(HandlerFunc(func(ev *Event) error {
		if ev.Kind == KindMessageStop {
			return boom
		}
		return nil
	}), Options{})
	if err := s.Push(&Event{Kind: KindTextDelta, Message: "m", Text: "open"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); !errors.Is(err, boom) {
		t.Errorf("close: %v", err)
	}
}

// TestFinishedMemoryIsBounded checks that an endless stream of messages
// and tools does not grow the session's memory of finished ids.
func TestFinishedMemoryIsBounded(t *testing.T) {
	t.Parallel()
	s := NewSession(HandlerFunc(func(*Event) error { return nil }), Options{})
	for i := 0; i < 5*finishedMemory; i++ {
		id := fmt.Sprint("m", i)
		for _, ev := range []Event{msgStart(id), delta(id, 0, "x"), msgStop(id), toolStart(id, "t"), toolEnd(id, ToolOK, "")} {
			if err := send(s, &ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(s.stopped.set) > finishedMemory || len(s.ended.set) > finishedMemory || len(s.msgs) != 0 || len(s.tools) != 0 {
		t.Errorf("finished %d ended %d open %d/%d", len(s.stopped.set), len(s.ended.set), len(s.msgs), len(s.tools))
	}
	// The most recent ids are still known.
	last := fmt.Sprint("m", 5*finishedMemory-1)
	if !s.stopped.has(last) || !s.ended.has(last) {
		t.Errorf("recent id forgotten")
	}
}

// ExampleSession shows cumulative chunks (snapshots) turned into deltas,
// and a final frame that repeats the streamed text dropped.
func ExampleSession() {
	s := NewSession(HandlerFunc(func(ev *Event) error {
		if ev.Kind == KindTextDelta {
			fmt.Printf("%q\n", ev.Text)
		}
		return nil
	}), Options{})
	for _, ev := range []Event{
		{Kind: KindTextDelta, Message: "m1", Type: "snapshot", Text: "Hello"},
		{Kind: KindTextDelta, Message: "m1", Type: "snapshot", Text: "Hello, wor"},
		{Kind: KindTextDelta, Message: "m1", Type: "snapshot", Text: "Hello, world"},
		{Kind: KindTextDelta, Message: "m1", Type: "final", Text: "Hello, world"},
	} {
		_ = send(s, &ev)
	}
	// Output:
	// "Hello"
	// ", wor"
	// "ld"
}

// ExampleSession_snapshotAsDelta shows a delta that repeats the whole block
// (at least SnapshotMinBytes of it): only its new suffix is passed on.
func ExampleSession_snapshotAsDelta() {
	s := NewSession(HandlerFunc(func(ev *Event) error {
		if ev.Kind == KindTextDelta {
			fmt.Printf("%q\n", ev.Text)
		}
		return nil
	}), Options{Report: func(line int, msg string) { fmt.Printf("line %d: repaired\n", line) }})
	first := "I will read the file and then fix the test."
	for i, text := range []string{first, first + " Done."} {
		_ = s.Push(&Event{Kind: KindTextDelta, Message: "m1", Text: text, Line: i + 1})
	}
	fmt.Println(s.Stats().SnapshotAsDelta)
	// Output:
	// "I will read the file and then fix the test."
	// line 2: repaired
	// " Done."
	// 1
}

// ExampleSession_Outcome shows the run outcome: the last run decides.
func ExampleSession_Outcome() {
	s := NewSession(HandlerFunc(func(*Event) error { return nil }), Options{})
	for _, ev := range []Event{
		{Kind: KindSessionStart, SessionID: "a"},
		{Kind: KindResult, OK: false, Reason: "error_max_turns"},
		{Kind: KindSessionStart, SessionID: "b"},
		{Kind: KindTextDelta, Message: "m1", Text: "Fixed."},
		{Kind: KindResult, OK: true},
	} {
		_ = send(s, &ev)
	}
	o, _ := s.Outcome()
	fmt.Println(o, s.FinalAnswer())
	// Output: success Fixed.
}

// What the session closes itself (at a result, a new run, the end) says
// which agent it belonged to, as the events that opened it did.
func TestClosedByTheSessionKeepsItsAgent(t *testing.T) {
	t.Parallel()
	r := newRecorder(false)
	for _, ev := range []Event{
		{Kind: KindTextDelta, Agent: "codex", Message: "m", Text: "x"},
		{Kind: KindToolStart, Agent: "codex", ID: "t", Name: "shell"},
		{Kind: KindSessionStart, Agent: "gemini", SessionID: "s2"},
		{Kind: KindToolOutputDelta, Agent: "gemini", ID: "u", Text: "y"},
	} {
		if err := send(r.sess, &ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.sess.Close(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range r.out {
		if e.Kind == KindMessageStop || e.Kind == KindToolEnd {
			got = append(got, string(e.Kind)+" "+e.Agent)
		}
	}
	if want := "message.stop codex,tool.end codex,tool.end gemini"; strings.Join(got, ",") != want {
		t.Errorf("got %s, want %s", strings.Join(got, ","), want)
	}
}

// A late block of the run's answer adds to the answer; a late block of
// another message does not replace it.
func TestLateBlockOfTheAnswer(t *testing.T) {
	t.Parallel()
	r := newRecorder(false)
	for _, ev := range []Event{msgStart("m1"), delta("m1", 0, "Hello."), msgStop("m1"), final("m1", 1, "And more."),
		{Kind: KindMessageStart, Message: "u", Role: RoleUser}, {Kind: KindTextDelta, Message: "u", Role: RoleUser, Text: "prompt"},
		msgStop("u"), withMode(Event{Kind: KindTextDelta, Message: "u", Role: RoleUser, Block: 1, Text: "late prompt"}, Final)} {
		if err := send(r.sess, &ev); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.sess.FinalAnswer(); got != "Hello.\n\nAnd more." {
		t.Errorf("answer %q", got)
	}
}
