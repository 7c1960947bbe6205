package render

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/streaming"
)

// benchRun is one short agent run as the session hands it to a renderer:
// a session start, a user prompt, assistant text, two tool calls (one
// with a long output), usage and the result.
func benchRun() []streaming.Event {
	var out strings.Builder
	for i := range 40 {
		out.WriteString("line ")
		out.WriteString(strings.Repeat("x", i))
		out.WriteString("\n")
	}
	usage := &streaming.Usage{InputTokens: 16, OutputTokens: 956, CacheReadTokens: 58826, CacheWriteTokens: 11907,
		CostUSD: 0.21085415, HasCost: true}
	t := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	return []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", Time: t, SessionID: "6170607e-7232-407c-82c3-7fc983d60064",
			Model: "claude-sonnet-4-5-20250929", CWD: "/home/user/project"},
		{Kind: streaming.KindTextDelta, Message: "u1", Role: streaming.RoleUser, Text: "Fix the failing test\nplease\n"},
		{Kind: streaming.KindMessageStop, Message: "u1"},
		{Kind: streaming.KindTextDelta, Message: "m1", Role: streaming.RoleAssistant, Text: "I'll look at the test first.\nThen "},
		{Kind: streaming.KindTextDelta, Message: "m1", Role: streaming.RoleAssistant, Text: "fix it.\n"},
		{Kind: streaming.KindMessageStop, Message: "m1"},
		{Kind: streaming.KindToolStart, ID: "t1", Name: "Bash", Input: `{"command":"go test ./...","description":"Run the tests"}`, Subject: subj(`{"command":"go test ./...","description":"Run the tests"}`)},
		{Kind: streaming.KindToolEnd, ID: "t1", Name: "Bash", Input: `{"command":"go test ./...","description":"Run the tests"}`, Subject: subj(`{"command":"go test ./...","description":"Run the tests"}`),
			Status: streaming.ToolError, Output: out.String(), ExitCode: streaming.IntPtr(1), DurationMS: 2360},
		{Kind: streaming.KindToolStart, ID: "t2", Name: "Read", Input: `{"file_path":"/home/user/project/cart.go"}`, Subject: subj(`{"file_path":"/home/user/project/cart.go"}`)},
		{Kind: streaming.KindToolEnd, ID: "t2", Name: "Read", Input: `{"file_path":"/home/user/project/cart.go"}`, Subject: subj(`{"file_path":"/home/user/project/cart.go"}`),
			Status: streaming.ToolOK, Output: "package cart\n"},
		{Kind: streaming.KindUsage, Usage: usage},
		{Kind: streaming.KindResult, OK: true, DurationMS: 42800, Turns: 19, Usage: usage,
			Text: "Done: the test passes now.", Reason: "success"},
	}
}

// benchPlain renders events b.N times through a session and a plain
// renderer that reads the session's run, as `-o plain` does (a session
// for each time: ids are a run's).
func benchPlain(b *testing.B, evs []streaming.Event) {
	p := newPlainRenderer(io.Discard, Config{Color: false, Width: 100, ToolLines: 6,
		Thinking: ThinkingSummary, Tools: ToolsPreview, CI: CINone})
	b.ReportAllocs()
	for b.Loop() {
		s := streaming.NewSession(p, streaming.Options{})
		for i := range evs {
			if err := s.Push(&evs[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkPlainRun(b *testing.B) { benchPlain(b, benchRun()) }

// BenchmarkPlainResult is the end of a run: session start, usage, result.
func BenchmarkPlainResult(b *testing.B) {
	var evs []streaming.Event
	for _, ev := range benchRun() {
		switch ev.Kind {
		case streaming.KindSessionStart, streaming.KindUsage, streaming.KindResult:
			evs = append(evs, ev)
		}
	}
	benchPlain(b, evs)
}
