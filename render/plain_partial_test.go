package render

import (
	"bytes"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// TestPlainFlushShowsThePartialLine: a hung agent's unfinished line is in
// the log after a flush, and the line is finished in place, append-only,
// each character once.
func TestPlainFlushShowsThePartialLine(t *testing.T) {
	var out bytes.Buffer
	p := NewPlain(&out, Config{Palette: NewPalette(false), Width: 80, Thinking: ThinkingSummary, Tools: ToolsPreview, CI: CINone})
	delta := func(s string) {
		if err := p.Handle(&streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Role: "assistant", Text: s}); err != nil {
			t.Fatal(err)
		}
	}
	step := func(want string) {
		t.Helper()
		if err := p.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Fatalf("output %q, want %q", out.String(), want)
		}
	}
	delta("Hello wor")
	step("Hello wor")
	delta("ld\nNext ")
	step("Hello world\nNext ")
	delta("line é")
	delta("\xc3") // half of a two-byte character: held back
	step("Hello world\nNext line é")
	delta("\xa9 done\r")
	step("Hello world\nNext line éé done")
	delta("\n")
	step("Hello world\nNext line éé done\n")
	delta("tail")
	if err := p.Handle(&streaming.Event{Kind: streaming.KindBlockStop, Message: "m", BlockKind: streaming.KindTextDelta}); err != nil {
		t.Fatal(err)
	}
	step("Hello world\nNext line éé done\ntail\n")
}
