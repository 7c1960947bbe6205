package render_test

import (
	"os"

	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example renders a few events as plain text, the append-only format for
// logs and pipes: the session's events in, readable lines out.
func Example() {
	r, err := render.New("plain", os.Stdout, render.Config{Width: 80})
	if err != nil {
		panic(err)
	}
	for _, ev := range []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s1", Model: "claude-sonnet-4-5", CWD: "/work"},
		{Kind: streaming.KindMessageStart, Message: "m1", Role: streaming.RoleAssistant},
		{Kind: streaming.KindTextDelta, Message: "m1", Role: streaming.RoleAssistant, Text: "Running the tests.\n"},
		{Kind: streaming.KindMessageStop, Message: "m1", Role: streaming.RoleAssistant},
		{Kind: streaming.KindToolStart, ID: "t1", Name: "Bash", Subject: "go test ./..."},
		{Kind: streaming.KindToolEnd, ID: "t1", Name: "Bash", Status: streaming.ToolOK, Output: "ok   example 0.1s\n", ExitCode: streaming.IntPtr(0)},
		{Kind: streaming.KindResult, OK: true, Turns: 1},
	} {
		if err := r.Handle(&ev); err != nil {
			panic(err)
		}
	}
	if err := r.Finish(render.Summary{Outcome: streaming.Success}); err != nil {
		panic(err)
	}
	// Output:
	// ● session s1 · claude · claude-sonnet-4-5 · /work
	// Running the tests.
	// ▸ Bash go test ./...
	// ✓ Bash · exit 0
	//   │ ok   example 0.1s
	// ── ✓ done · 1 turn
}
