package filter

import (
	"testing"

	"github.com/agentfmt/agentfmt/streaming"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// Chatter drops unknown events and verbose status lines, and nothing
// else: warnings, errors and every other event pass.
func TestChatter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ev   streaming.Event
		pass bool
	}{
		{streaming.Event{Kind: streaming.KindUnknown, Type: "active_goal"}, false},
		{streaming.Event{Kind: streaming.KindStatus, Level: streaming.LevelVerbose, Text: "API request"}, false},
		{streaming.Event{Kind: streaming.KindStatus, Level: streaming.LevelInfo, Text: "context compacted"}, true},
		{streaming.Event{Kind: streaming.KindStatus, Level: streaming.LevelWarning, Text: "rate limit rejected"}, true},
		{streaming.Event{Kind: streaming.KindStatus, Text: "no level"}, true},
		{streaming.Event{Kind: streaming.KindError, Level: streaming.LevelVerbose, Text: "an error is never chatter"}, true},
		{streaming.Event{Kind: streaming.KindNotice, Text: "agentfmt's own"}, true},
		{streaming.Event{Kind: streaming.KindRaw, Text: "a banner"}, true},
		{streaming.Event{Kind: streaming.KindTextDelta, Text: "hi"}, true},
		{streaming.Event{Kind: streaming.KindResult, OK: true}, true},
	} {
		var got []streaming.Event
		f := NewChatter(streaming.HandlerFunc(func(ev *streaming.Event) error { got = append(got, *ev); return nil }))
		if err := f.Handle(&c.ev); err != nil {
			t.Fatal(err)
		}
		if (len(got) == 1) != c.pass {
			t.Errorf("%s %q level %q: passed %v, want %v", c.ev.Kind, c.ev.Text+c.ev.Type, c.ev.Level, len(got) == 1, c.pass)
		}
	}
}
