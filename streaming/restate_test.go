package streaming

import (
	"strconv"
	"testing"
)

// restate is a piece of message msg, block dst, that may repeat the
// current block of message of.
func restate(msg, of string, dst int, text string) Event {
	return withMode(Event{Kind: KindTextDelta, Message: msg, Block: dst, Restates: of, Text: text}, Restate)
}

// TestRestate: an agent repeating a block it streamed (a consolidated
// restatement under a new wire id, an echo of the prompt) is judged by the
// session, piece by piece, against the block it holds: a parser keeps no
// copy or hash of the text to tell.
func TestRestate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   []Event
		want []string
	}{
		{
			name: "the block again shows nothing",
			in:   []Event{msgStart("m"), delta("m", 0, "First "), delta("m", 0, "message."), msgStart("r"), restate("r", "m", 0, "First message.")},
			want: []string{"start m", `text.delta m/0 "First "`, `text.delta m/0 "message."`, "start r"},
		},
		{
			name: "the block again in pieces, white space around aside, shows nothing",
			in: []Event{msgStart("m"), delta("m", 0, "\nFix the bug\n"), restate("m", "m", 1, "  "), restate("m", "m", 1, "Fix the"),
				restate("m", "m", 1, " bug"), restate("m", "m", 1, "\n\n")},
			want: []string{"start m", `text.delta m/0 "\nFix the bug\n"`},
		},
		{
			name: "the block and more shows the rest",
			in:   []Event{msgStart("m"), delta("m", 0, "Fix the bug"), restate("m", "m", 1, "Fix the bug"), restate("m", "m", 1, ", and add a test.")},
			want: []string{"start m", `text.delta m/0 "Fix the bug"`, "block.stop m/0", `text.delta m/1 ", and add a test."`},
		},
		{
			name: "a different text is new text, and so is what follows it",
			in: []Event{msgStart("m"), delta("m", 0, "Also: the |---|-|"), msgStart("r"), restate("r", "m", 0, "= "), restate("r", "m", 0, "= "),
				restate("r", "m", 0, "="), msgStop("r"), msgStop("m")},
			want: []string{"start m", `text.delta m/0 "Also: the |---|-|"`, "start r", `text.delta r/0 "= "`, `text.delta r/0 "= "`, `text.delta r/0 "="`,
				"block.stop r/0", "stop r", "block.stop m/0", "stop m"},
		},
		{
			name: "a restatement that departs part way is shown whole",
			in:   []Event{msgStart("m"), delta("m", 0, "Fix the bug"), msgStart("r"), restate("r", "m", 0, "Fix the"), restate("r", "m", 0, " tests")},
			want: []string{"start m", `text.delta m/0 "Fix the bug"`, "start r", `text.delta r/0 "Fix the tests"`},
		},
		{
			name: "the same sentence in a message of its own is text: only Restate compares",
			in:   []Event{msgStart("m1"), delta("m1", 0, "Let me check."), msgStop("m1"), toolStart("t", "Bash"), toolEnd("t", ToolOK, ""), msgStart("m2"), delta("m2", 0, "Let me check.")},
			want: []string{"start m1", `text.delta m1/0 "Let me check."`, "block.stop m1/0", "stop m1", "tool.start t Bash", `tool.end t ok ""`, "start m2", `text.delta m2/0 "Let me check."`},
		},
		{
			name: "a restatement of a message that stopped is new text",
			in:   []Event{msgStart("m"), delta("m", 0, "Done."), msgStop("m"), msgStart("r"), restate("r", "m", 0, "Done.")},
			want: []string{"start m", `text.delta m/0 "Done."`, "block.stop m/0", "stop m", "start r", `text.delta r/0 "Done."`},
		},
		{
			name: "in another run it is new text",
			in:   []Event{sessStart("a"), msgStart("m"), delta("m", 0, "Done."), sessStart("b"), msgStart("r"), restate("r", "m", 0, "Done.")},
			want: []string{"session.start", "start m", `text.delta m/0 "Done."`, "block.stop m/0", "stop m", "notice", "session.start", "start r", `text.delta r/0 "Done."`},
		},
		{
			name: "a final equal but for the white space around it shows nothing (Cursor's recap)",
			in:   []Event{msgStart("m"), delta("m", 0, "\n"), delta("m", 0, "Hi."), delta("m", 0, "\n\n"), final("m", 0, "Hi.")},
			want: []string{"start m", `text.delta m/0 "\n"`, `text.delta m/0 "Hi."`, `text.delta m/0 "\n\n"`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := pushAll(t, false, c.in...)
			r.withStops = true
			if got := r.shorts(); !same(got, c.want) {
				t.Errorf("got\n  %q\nwant\n  %q", got, c.want)
			}
			for _, e := range r.out {
				if e.Restates != "" {
					t.Errorf("Restates passed on: %+v", e)
				}
			}
		})
	}
}

// TestRestateFolded: a final or a restatement that says the block again
// with CRLF line ends or in decomposed Unicode (NFD) is the same text, not
// a revision; what it adds is shown, and a real rewrite is still one.
func TestRestateFolded(t *testing.T) {
	t.Parallel()
	const nfc, nfd = "Le café est prêt.\nOK", "Le cafe\u0301 est pre\u0302t.\r\nOK"
	cases := []struct {
		name string
		in   []Event
		want []string
	}{
		{
			name: "a final in NFD with CRLF shows nothing",
			in:   []Event{msgStart("m"), delta("m", 0, nfc), final("m", 0, nfd)},
			want: []string{"start m", `text.delta m/0 "Le café est prêt.\nOK"`},
		},
		{
			name: "a final in NFC of a block streamed in NFD shows nothing",
			in:   []Event{msgStart("m"), delta("m", 0, nfd), final("m", 0, nfc)},
			want: []string{"start m", "text.delta m/0 " + strconv.Quote(nfd)},
		},
		{
			name: "a final in NFD that goes on shows what it adds",
			in:   []Event{msgStart("m"), delta("m", 0, nfc), final("m", 0, nfd+"\r\nDone.")},
			want: []string{"start m", `text.delta m/0 "Le café est prêt.\nOK"`, `text.delta m/0 "\nDone."`},
		},
		{
			name: "a final that rewrites is a revision",
			in:   []Event{msgStart("m"), delta("m", 0, nfc), final("m", 0, "Le the est prêt.\r\nOK")},
			want: []string{"start m", `text.delta m/0 "Le café est prêt.\nOK"`, `text.revision m/0 "Le the est prêt.\r\nOK"`},
		},
		{
			name: "a restatement in NFD and CRLF, split inside a character and a line end, shows nothing",
			in: []Event{msgStart("m"), delta("m", 0, nfc), msgStart("r"), restate("r", "m", 0, "Le cafe"), restate("r", "m", 0, "\u0301 est pre\u0302t.\r"),
				restate("r", "m", 0, "\nOK")},
			want: []string{"start m", `text.delta m/0 "Le café est prêt.\nOK"`, "start r"},
		},
		{
			name: "a restatement in NFD that departs is shown whole",
			in:   []Event{msgStart("m"), delta("m", 0, nfc), msgStart("r"), restate("r", "m", 0, "Le cafe"), restate("r", "m", 0, "teria")},
			want: []string{"start m", `text.delta m/0 "Le café est prêt.\nOK"`, "start r", `text.delta r/0 "Le cafeteria"`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := pushAll(t, false, c.in...)
			r.withStops = true
			if got := r.shorts(); !same(got, c.want) {
				t.Errorf("got\n  %q\nwant\n  %q", got, c.want)
			}
		})
	}
}
