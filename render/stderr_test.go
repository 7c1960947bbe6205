package render

import (
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/streaming"
)

// The agent's stderr ('agentfmt run') is a line of its own in every
// format, shown at full strength as a raw input line is: never dimmed,
// never taken for the agent's chatter.
func TestStderrLineShownAsRawLine(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"plain", "pretty", "markdown", "json"} {
		show := func(kind streaming.Kind) string {
			var out strings.Builder
			r, err := New(format, &out, Config{Color: true, Width: 80, Height: 24, Static: true, env: renderenv.Env{Now: func() time.Time { return time.Time{} }, Tick: make(chan time.Time)}})
			if err != nil {
				t.Fatal(err)
			}
			ev := streaming.Event{Kind: kind, Text: "Error: Invalid API key"}
			if err := r.Handle(&ev); err != nil {
				t.Fatal(err)
			}
			if err := r.Finish(Summary{Outcome: streaming.Incomplete}); err != nil {
				t.Fatal(err)
			}
			return out.String()
		}
		got, raw := show(streaming.KindStderr), show(streaming.KindRaw)
		if !strings.Contains(got, "Error: Invalid API key") {
			t.Errorf("-o %s: the stderr line is not shown:\n%s", format, got)
		}
		if format != "json" && got != raw {
			t.Errorf("-o %s: the stderr line\n%q\nis not shown as a raw line is\n%q", format, got, raw)
		}
	}
}
