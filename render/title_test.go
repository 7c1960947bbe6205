package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestSessionTitle: a run that is not the agent's main conversation (a
// Claude Code subagent's own transcript) is named in its header, in every
// format that has one.
func TestSessionTitle(t *testing.T) {
	t.Parallel()
	evs := []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s1", Title: "subagent a81c4e2", CWD: "/work"},
		{Kind: streaming.KindResult, OK: true, Turns: 1},
	}
	for format, want := range map[string]string{
		"plain":    "● session s1 · claude · subagent a81c4e2 · /work\n",
		"pretty":   "● session s1 · claude · subagent a81c4e2 · /work",
		"markdown": "## Run 1 · claude · subagent a81c4e2\n",
		"json":     `"session_id":"s1","title":"subagent a81c4e2","cwd":"/work"`,
	} {
		var out bytes.Buffer
		r, err := New(format, &out, Config{Width: 100, Color: false, env: renderenv.Env{Now: fixedNow}})
		if err != nil {
			t.Fatal(err)
		}
		for i := range evs {
			if err := r.Handle(&evs[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Finish(Summary{Outcome: streaming.Success}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s: %q lacks %q", format, out.String(), want)
		}
	}
}
