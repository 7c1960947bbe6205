package streaming

import "testing"

// TestBlockStop: the session announces each text or thinking block that
// showed text as final once: when the message shows a
// new block, when the message stops, at a run's end (a result, a new
// session) and at the end of input. Each case fails without its trigger.
func TestBlockStop(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		in    []Event
		close bool
		want  []string
	}{
		{
			name: "a new block of the message ends the one before",
			in:   []Event{msgStart("m1"), think("m1", 0, "hmm", Delta), delta("m1", 1, "one"), delta("m1", 1, " two"), delta("m1", 2, "three")},
			want: []string{"start m1", `thinking.delta m1/0 "hmm"`, "block.stop m1/0 thinking", `text.delta m1/1 "one"`,
				`text.delta m1/1 " two"`, "block.stop m1/1", `text.delta m1/2 "three"`},
		},
		{
			name: "message.stop ends its open blocks, once",
			in:   []Event{msgStart("m1"), delta("m1", 0, "a"), delta("m1", 1, "b"), msgStop("m1"), msgStop("m1")},
			want: []string{"start m1", `text.delta m1/0 "a"`, "block.stop m1/0", `text.delta m1/1 "b"`, "block.stop m1/1", "stop m1"},
		},
		{
			name: "a block that showed nothing is not announced",
			in:   []Event{msgStart("m1"), delta("m1", 0, ""), final("m1", 1, ""), msgStop("m1")},
			want: []string{"start m1", "stop m1"},
		},
		{
			name: "another message's block does not end a block",
			in:   []Event{msgStart("a"), msgStart("b"), delta("a", 0, "x"), delta("b", 0, "y"), delta("a", 0, "z"), msgStop("b"), msgStop("a")},
			want: []string{"start a", "start b", `text.delta a/0 "x"`, `text.delta b/0 "y"`, `text.delta a/0 "z"`,
				"block.stop b/0", "stop b", "block.stop a/0", "stop a"},
		},
		{
			name: "a tool call does not end a block (only its message's own blocks do)",
			in:   []Event{msgStart("m1"), delta("m1", 0, "Let me look."), toolStart("t1", "Bash"), msgStop("m1"), toolEnd("t1", ToolOK, "")},
			want: []string{"start m1", `text.delta m1/0 "Let me look."`, "tool.start t1 Bash", "block.stop m1/0", "stop m1", `tool.end t1 ok ""`},
		},
		{
			name: "a result ends the run's blocks",
			in:   []Event{msgStart("m1"), delta("m1", 0, "Done."), result(true, "Done.")},
			want: []string{"start m1", `text.delta m1/0 "Done."`, "block.stop m1/0", "stop m1", `result true "Done."`},
		},
		{
			name: "a new session ends the last run's blocks",
			in:   []Event{sessStart("s1"), delta("m1", 0, "cut"), sessStart("s2")},
			want: []string{"session.start", "start m1", `text.delta m1/0 "cut"`, "block.stop m1/0", "stop m1", "notice", "session.start"},
		},
		{
			name:  "the end of input ends what is open",
			in:    []Event{delta("m1", 0, "half"), think("m2", 0, "still", Delta)},
			close: true,
			want: []string{"start m1", `text.delta m1/0 "half"`, "start m2", `thinking.delta m2/0 "still"`,
				"block.stop m1/0", "stop m1", "block.stop m2/0 thinking", "stop m2"},
		},
		{
			name: "a revision is text of the block: it is ended after it",
			in:   []Event{msgStart("m1"), delta("m1", 0, "Hello"), final("m1", 0, "Goodbye"), msgStop("m1")},
			want: []string{"start m1", `text.delta m1/0 "Hello"`, `text.revision m1/0 "Goodbye"`, "block.stop m1/0", "stop m1"},
		},
		{
			name: "a block shown again after its stop is ended again",
			in:   []Event{msgStart("m1"), delta("m1", 0, "a"), delta("m1", 1, "b"), final("m1", 0, "a and more"), msgStop("m1")},
			want: []string{"start m1", `text.delta m1/0 "a"`, "block.stop m1/0", `text.delta m1/1 "b"`, "block.stop m1/1",
				`text.delta m1/0 " and more"`, "block.stop m1/0", "stop m1"},
		},
		{
			name: "a late block of a stopped message is ended in the message reopened for it",
			in:   []Event{msgStart("m1"), delta("m1", 0, "Hello"), msgStop("m1"), final("m1", 0, "Hello"), final("m1", 1, "Late")},
			want: []string{"start m1", `text.delta m1/0 "Hello"`, "block.stop m1/0", "stop m1",
				"start m1", `text.delta m1/1 "Late"`, "block.stop m1/1", "stop m1"},
		},
		{
			name: "a result's text shown as an answer has its block ended",
			in:   []Event{sessStart("s1"), result(true, "All done.")},
			want: []string{"session.start", "start result@2", `text.delta result@2/0 "All done."`, "block.stop result@2/0",
				"stop result@2", `result true "All done."`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := pushAll(t, c.close, c.in...)
			r.withStops = true
			if got := r.shorts(); !same(got, c.want) {
				t.Errorf("got\n  %q\nwant\n  %q", got, c.want)
			}
			for _, e := range r.out {
				if e.Kind == KindBlockStop && (e.BlockKind != KindTextDelta && e.BlockKind != KindThinkingDelta || e.Role == "" || e.Text != "") {
					t.Errorf("block.stop %+v: a block kind and a role, no text", e)
				}
			}
		})
	}
}
