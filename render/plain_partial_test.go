package render

import (
	"bytes"
	"crypto/sha256"
	"runtime"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// TestPlainFlushShowsThePartialLine: a hung agent's unfinished line is in
// the log after a flush, and the line is finished in place, append-only,
// each character once.
func TestPlainFlushShowsThePartialLine(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	p := newPlainRenderer(&out, Config{Color: false, Width: 80, Thinking: ThinkingSummary, Tools: ToolsPreview, CI: CINone})
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

// TestPlainLongLineNotHeld: a line of text without an end (one paragraph of
// megabytes) is written as it grows once partialMost of it is held, not
// kept whole until its end; the log shows it once, whole, as before, also
// when a delta ends inside a character, and in a subagent's indent.
func TestPlainLongLineNotHeld(t *testing.T) {
	t.Parallel()
	for _, parent := range []string{"", "task"} {
		var out bytes.Buffer
		p := newPlainRenderer(&out, Config{Color: false, Width: 80, Thinking: ThinkingSummary, Tools: ToolsPreview, CI: CINone})
		handle := func(ev *streaming.Event) {
			if err := p.Handle(ev); err != nil {
				t.Fatal(err)
			}
		}
		indent := ""
		if parent != "" {
			handle(&streaming.Event{Kind: streaming.KindToolStart, ID: "task", Name: "Task", Subject: "look"})
			if err := p.Flush(); err != nil {
				t.Fatal(err)
			}
			out.Reset()
			indent = "  "
		}
		var want bytes.Buffer
		piece := bytes.Repeat([]byte("words é "), 1000) // 9,000 bytes, ending in a space
		for i := range 200 {
			d := piece
			if i%2 == 1 {
				d = append([]byte("\xa9"), piece[:len(piece)-1]...) // the é cut in two by the last delta
			} else if i < 199 {
				d = append(append([]byte{}, piece...), '\xc3')
			}
			want.Write(d)
			handle(&streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Role: "assistant", Parent: parent, Text: string(d)})
			if held := cap(p.partial); held > 1<<20 { // (the line grows to 1.8 MB)
				t.Fatalf("after %d KiB of one line, %d KiB of it held", want.Len()>>10, held>>10)
			}
		}
		handle(&streaming.Event{Kind: streaming.KindBlockStop, Message: "m", Parent: parent, BlockKind: streaming.KindTextDelta})
		if err := p.Flush(); err != nil {
			t.Fatal(err)
		}
		if got, w := out.String(), indent+want.String()+"\n"; got != w {
			t.Errorf("parent %q: %d bytes written, want the line once (%d bytes); first difference at %d: %q", parent, len(got), len(w), firstDiff(got, w), got[:min(len(got), 40)])
		}
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestPlainLongDeltaNotCopied: a delta of megabytes without a line end (an
// answer sent whole as one paragraph) is written from the event itself;
// copying it to hold the line doubled the memory such an answer takes.
func TestPlainLongDeltaNotCopied(t *testing.T) {
	out := sha256.New() // (a buffer of the output would grow by the delta itself)
	p := newPlainRenderer(out, Config{Color: false, Width: 80, Thinking: ThinkingSummary, Tools: ToolsPreview, CI: CINone})
	text := strings.Repeat("one paragraph, ", 4<<20/15)
	ev := &streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Role: "assistant", Text: "Start: "}
	if err := p.Handle(ev); err != nil { // (something held before it)
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ev.Text = text
	if err := p.Handle(ev); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("a delta of %d KiB cost %d KiB", len(text)>>10, n>>10)
	}
	if err := p.Handle(&streaming.Event{Kind: streaming.KindBlockStop, Message: "m", BlockKind: streaming.KindTextDelta}); err != nil {
		t.Fatal(err)
	}
	p.Flush()
	if want := sha256.Sum256([]byte("Start: " + text + "\n")); !bytes.Equal(out.Sum(nil), want[:]) {
		t.Errorf("the output is not the line once")
	}
}
