package render

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

func TestExpandTabs(t *testing.T) {
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
	d := newDriver(t, Config{Palette: NewPalette(false)})
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
