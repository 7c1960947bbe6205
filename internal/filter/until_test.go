package filter

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/streaming"
)

var stripCases = []struct {
	name, marker, in, want string
}{
	{"end of text", "!isfinish", "Zakończyłem zadanie! Wszystko działa poprawnie. !isfinish", "Zakończyłem zadanie! Wszystko działa poprawnie."},
	{"start of text", "!isfinish", "!isfinish Zakończyłem zadanie!", "Zakończyłem zadanie!"},
	{"alone", "DONE", "DONE", ""},
	{"alone with spaces", "DONE", "  done \n", ""},
	{"both ends", "DONE", "DONE a DONE", "a"},
	{"twice at the end", "DONE", "a DONE DONE", "a DONE"},
	{"middle", "!isfinish", "Done !isfinish now", "Done !isfinish now"},
	{"mid-sentence word", "done", "I abandoned the old approach; the Done callback is now done properly.", "I abandoned the old approach; the Done callback is now done properly."},
	{"inside a word", "done", "abandoned", "abandoned"},
	{"end of a word", "DONE", "TOOL_OK_DONE", "TOOL_OK_DONE"},
	{"start of a word", "DONE", "DONEs are few", "DONEs are few"},
	{"punctuation after", "done", "We are done.", "We are done."},
	{"glued to a word", "!isfinish", "Done.!isfinish", "Done.!isfinish"},
	{"case-insensitive", "!isfinish", "Finished. !IsFinish", "Finished."},
	{"unicode case", "<ŻÓŁW>", "ok <żółw>", "ok"},
	{"start of a later line", "!isfinish", "Line one.\n!isfinish  Line two.", "Line one.\n!isfinish  Line two."},
	{"alone on its last line", "<promise>DONE</promise>", "All tests pass.\n\n<promise>DONE</promise>\n", "All tests pass."},
	{"alone on its first line", "<promise>DONE</promise>", "\n<promise>DONE</promise>\n\nAll tests pass.\n", "All tests pass.\n"},
	{"absent", "!isfinish", "Nothing here! is finished", "Nothing here! is finished"},
	{"prefix only", "!isfinish", "almost !isfin", "almost !isfin"},
	{"overlapping", "abab", "x aabab", "x aabab"},
	{"not recursive", "ab", "aabb", "aabb"},
	{"tabs before", "XX", "a\t\tXX", "a"},
	{"bytes kept", "XX", "  a\r\n\tb  ", "  a\r\n\tb  "},
	{"empty text", "XX", "", ""},
	{"only spaces", "XX", " \n ", " \n "},
	{"much space before", "XX", "a" + strings.Repeat(" ", 5000) + "XX", "a" + strings.Repeat(" ", 5000-maxSpace)},
	{"much space after", "XX", "a XX" + strings.Repeat(" ", 5000), "a XX" + strings.Repeat(" ", 5000)},
	{"much space first", "XX", strings.Repeat("\n", 5000) + "XX b", strings.Repeat("\n", 5000) + "XX b"},
}

// A block of nothing but whitespace, one byte at a time, costs linear time:
// what is held back is bounded, at the beginning of a block and after a
// marker at its end.
func TestMarkerWhitespaceBounded(t *testing.T) {
	t.Parallel()
	m := NewMarker("DONE")
	for _, start := range []string{"", "text DONE"} {
		var st markerState
		_, held := m.feed(&st, start, false)
		for i := 0; i < 2*maxSpace; i++ {
			_, held = m.feed(&st, held+" ", false)
			if len(held) > maxSpace+len(start)+1 {
				t.Fatalf("%q: holding %d bytes after %d spaces", start, len(held), i+1)
			}
		}
	}
}

// feedPieces strips a text that arrives in pieces, as Until does.
func feedPieces(m *Marker, pieces []string) string {
	var st markerState
	var out strings.Builder
	held := ""
	for _, p := range pieces {
		show, hold := m.feed(&st, held+p, false)
		out.Write(show)
		held = hold
	}
	show, _ := m.feed(&st, held, true)
	out.Write(show)
	return out.String()
}

// However the text is cut, the marker goes exactly as from the whole text.
// The texts of thousands of spaces, each piece of which scans the
// whitespace held, are cut 60 ways in the slow run and 4 every day.
func TestMarkerStreamedEqualsWhole(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(2))
	for _, c := range stripCases {
		m := NewMarker(c.marker)
		trials := 60
		if len(c.in) > maxSpace && !testenv.SlowEnabled() {
			trials = 4
		}
		for trial := 0; trial < trials; trial++ {
			pieces := randomPieces(rng, c.in, trial%2 == 0)
			if got := feedPieces(m, pieces); got != c.want {
				t.Fatalf("%s: pieces %q gave %q, want %q", c.name, pieces, got, c.want)
			}
		}
	}
}

func FuzzMarker(f *testing.F) {
	for _, c := range stripCases {
		f.Add(c.marker, c.in, 2)
	}
	f.Fuzz(func(t *testing.T, marker, s string, cut int) {
		if marker == "" {
			return
		}
		m := NewMarker(marker)
		whole := m.Strip(s)
		if cut <= 0 {
			cut = 1
		}
		var pieces []string
		for r := s; len(r) > 0; {
			n := min(cut%5+1, len(r))
			pieces = append(pieces, r[:n])
			r = r[n:]
		}
		if got := feedPieces(m, pieces); got != whole {
			t.Fatalf("streamed %q != whole %q (pieces %q)", got, whole, pieces)
		}
		if !m.In(s) && whole != s {
			t.Fatalf("nothing found but the text changed")
		}
	})
}

// collect records what a filter passes on.
type collect struct{ evs []streaming.Event }

func (c *collect) Handle(ev *streaming.Event) error {
	c.evs = append(c.evs, ev.Clone())
	return nil
}

func (c *collect) text(kind streaming.Kind) string {
	var b strings.Builder
	for _, e := range c.evs {
		if e.Kind == kind {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

func (c *collect) kinds() string {
	var ks []string
	for _, e := range c.evs {
		ks = append(ks, string(e.Kind))
	}
	return strings.Join(ks, " ")
}

// closer is a filter.
type closer interface {
	streaming.Handler
	Close() error
}

// through runs events through a session into the filter f, as the command
// does (a filter sees the session's output, block.stop included), then
// closes both.
func through(t *testing.T, f closer, evs ...*streaming.Event) {
	t.Helper()
	s := streaming.NewSession(f, streaming.Options{})
	for _, ev := range evs {
		if err := s.Push(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func delta(msg string, block int, text string) *streaming.Event {
	return &streaming.Event{Kind: streaming.KindTextDelta, Message: msg, Block: block, Role: streaming.RoleAssistant, Text: text}
}

func TestUntilSplitMarker(t *testing.T) {
	t.Parallel()
	var c collect
	through(t, NewUntil(&c, "!isfinish"),
		&streaming.Event{Kind: streaming.KindMessageStart, Message: "m1", Role: streaming.RoleAssistant},
		delta("m1", 0, "All done. !is"),
		delta("m1", 0, "fin"),
		delta("m1", 0, "ish"),
		&streaming.Event{Kind: streaming.KindMessageStop, Message: "m1", Role: streaming.RoleAssistant},
		&streaming.Event{Kind: streaming.KindResult, OK: true, Text: "All done. !isfinish"})
	if got := c.text(streaming.KindTextDelta); got != "All done." {
		t.Errorf("text %q", got)
	}
	if res := c.evs[len(c.evs)-1]; res.Kind != streaming.KindResult || res.Text != "All done." {
		t.Errorf("result %+v", res)
	}
	// Deltas that held only part of the marker were dropped, not sent empty.
	for _, e := range c.evs {
		if e.Kind == streaming.KindTextDelta && e.Text == "" {
			t.Errorf("empty delta passed on")
		}
	}
}

// A held prefix that turns out not to be the marker is shown when the
// session ends the block, before its block.stop: not when something else
// happens (a tool call of the same message leaves the block open).
func TestUntilFlushesAtBlockStop(t *testing.T) {
	t.Parallel()
	var c collect
	through(t, NewUntil(&c, "!isfinish"), delta("m1", 0, "Wow !is"),
		&streaming.Event{Kind: streaming.KindToolStart, ID: "t1", Name: "Bash"},
		&streaming.Event{Kind: streaming.KindMessageStop, Message: "m1"})
	if got := c.text(streaming.KindTextDelta); got != "Wow !is" {
		t.Errorf("text %q", got)
	}
	if k := c.kinds(); !strings.HasPrefix(k, "message.start text.delta tool.start text.delta block.stop message.stop") {
		t.Errorf("order %s", k)
	}
	// The session ends a block when its message goes on with another.
	c = collect{}
	through(t, NewUntil(&c, "XYZ"), delta("m1", 0, "a X"), delta("m1", 1, "b"))
	if k := c.kinds(); !strings.HasPrefix(k, "message.start text.delta text.delta block.stop text.delta") || c.evs[2].Text != " X" || c.evs[2].Block != 0 {
		t.Errorf("got %s %+v", k, c.evs)
	}
}

// Parallel subagents interleave: one message's text does not end
// another's block.
func TestUntilInterleaved(t *testing.T) {
	t.Parallel()
	var c collect
	a := delta("a", 0, "left DO")
	a.Parent = "task1"
	b := delta("b", 0, "right DO")
	b.Parent = "task2"
	a2 := delta("a", 0, "NE")
	a2.Parent = "task1"
	b2 := delta("b", 0, "G")
	b2.Parent = "task2"
	through(t, NewUntil(&c, "DONE"), a, b, a2, b2)
	texts := map[string]string{}
	for _, e := range c.evs {
		texts[e.Parent] += e.Text
	}
	if texts["task1"] != "left" || texts["task2"] != "right DOG" {
		t.Errorf("subagent texts %q", texts)
	}
}

func TestUntilLeavesUserTextAndTools(t *testing.T) {
	t.Parallel()
	var c collect
	u := NewUntil(&c, "!isfinish")
	user := &streaming.Event{Kind: streaming.KindTextDelta, Message: "u", Role: streaming.RoleUser, Text: "Say !isfinish when done"}
	tool := &streaming.Event{Kind: streaming.KindToolEnd, ID: "t", Output: "grep !isfinish"}
	u.Handle(user)
	u.Handle(tool)
	if c.evs[0].Text != user.Text || c.evs[1].Output != tool.Output {
		t.Errorf("changed: %+v", c.evs)
	}
}

func TestUntilRevisionAndThinking(t *testing.T) {
	t.Parallel()
	var c collect
	u := NewUntil(&c, "!isfinish")
	u.Handle(delta("m", 0, "draft"))
	u.Handle(&streaming.Event{Kind: streaming.KindTextRevision, Message: "m", Role: streaming.RoleAssistant, Text: "Final. !isfinish"})
	u.Handle(&streaming.Event{Kind: streaming.KindThinkingDelta, Message: "m", Block: 1, Role: streaming.RoleAssistant, Text: "I will say !isfinish"})
	u.Close()
	if c.evs[1].Kind != streaming.KindTextRevision || c.evs[1].Text != "Final." {
		t.Errorf("revision %+v", c.evs[1])
	}
	if got := c.text(streaming.KindThinkingDelta); got != "I will say" {
		t.Errorf("thinking %q", got)
	}
}
