package render

import (
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/palette"
	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/agentfmt/agentfmt/streaming"
)

func TestExpandTabs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"no tabs", "no tabs"},
		{"a\tb", "a       b"},
		{"abcdefgh\tb", "abcdefgh        b"},
		{"日本\tx", "日本    x"},                    // wide characters count two cells
		{"a\tb\nxy\tz", "a       b\nxy      z"}, // each line has its own tab stops
		{"\t", "        "},
	} {
		if got := expandTabs(tc.in); got != tc.want {
			t.Errorf("expandTabs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A prompt's lines, settled in one frame, keep their own tab stops and
// rows: the first after "› ", the others indented, empty lines empty.
func TestPromptLines(t *testing.T) {
	t.Parallel()
	d := newDriver(t, Config{palette: palette.New(false)})
	d.push(streaming.Event{Kind: streaming.KindMessageStart, Message: "u1", Role: streaming.RoleUser})
	d.push(streaming.Event{Kind: streaming.KindTextDelta, Message: "u1", Role: streaming.RoleUser, Text: "first\tline\n\nxy\tz\r\nlast"})
	d.push(streaming.Event{Kind: streaming.KindMessageStop, Message: "u1"})
	d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	out, _ := d.finish(false)
	want := "› first   line\n\n  xy      z\n  last\n"
	if !strings.Contains(string(out), want) {
		t.Errorf("prompt rows:\n%q\nwant them to hold\n%q", out, want)
	}
}

// An event's strings are valid only during Handle: a line pretty keeps
// for a later frame (a raw input line, a status, a revision) is its own
// copy, not a view of memory the caller writes again.
func TestPrettyLinesOutliveEvent(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	r, err := New("pretty", &out, Config{Color: false, Width: 80, Height: 24, env: renderenv.Env{Now: func() time.Time { return time.Time{} }, Tick: make(chan time.Time)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []streaming.Kind{streaming.KindRaw, streaming.KindStatus, streaming.KindTextRevision} {
		buf := []byte("a line that its caller writes over once Handle returns")
		ev := streaming.Event{Kind: kind, Message: "m1", Text: view.String(buf)}
		if err := r.Handle(&ev); err != nil {
			t.Fatal(err)
		}
		for i := range buf {
			buf[i] = '#'
		}
	}
	if err := r.Finish(Summary{}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); strings.Contains(got, "###") || strings.Count(got, "a line that its caller writes over") != 3 {
		t.Fatalf("pretty shows:\n%s", got)
	}
}
