package render

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

func renderMarkdown(t *testing.T, cfg Config, evs []streaming.Event, sum Summary) string {
	t.Helper()
	var out bytes.Buffer
	r, err := New("markdown", &out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	feed(t, r, evs)
	if err := r.Finish(sum); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func text(msg, s string) streaming.Event {
	return streaming.Event{Kind: streaming.KindTextDelta, Message: msg, Role: streaming.RoleAssistant, Text: s}
}

func TestMarkdownTranscript(t *testing.T) {
	t.Parallel()
	usage := &streaming.Usage{InputTokens: 1200, OutputTokens: 340, CostUSD: 0.0123, HasCost: true}
	evs := []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", Model: "claude-sonnet-4-5", SessionID: "abc-123", CWD: "/work"},
		{Kind: streaming.KindTextDelta, Message: "u", Role: streaming.RoleUser, Text: "Fix the test"},
		{Kind: streaming.KindMessageStop, Message: "u"},
		{Kind: streaming.KindThinkingDelta, Message: "m1", Role: streaming.RoleAssistant, Text: "The test fails because\nthe clock is real."},
		text("m1", "I'll run the tests"),
		text("m1", " first.\n"),
		{Kind: streaming.KindToolStart, ID: "t1", Name: "Bash", Input: `{"command":"go test ./..."}`, Subject: subj(`{"command":"go test ./..."}`)},
		{Kind: streaming.KindToolEnd, ID: "t1", Name: "Bash", Input: `{"command":"go test ./..."}`, Subject: subj(`{"command":"go test ./..."}`), Status: streaming.ToolError,
			ExitCode: streaming.IntPtr(1), DurationMS: 1500, Output: "--- FAIL: TestClock\n" + strings.Repeat("    noise\n", 10) + "FAIL\n"},
		{Kind: streaming.KindToolStart, ID: "t2", Name: "Edit", Input: `{"file_path":"clock.go"}`, Subject: subj(`{"file_path":"clock.go"}`)},
		{Kind: streaming.KindToolEnd, ID: "t2", Name: "Edit", Input: `{"file_path":"clock.go"}`, Subject: subj(`{"file_path":"clock.go"}`), Status: streaming.ToolOK},
		{Kind: streaming.KindStatus, Level: streaming.LevelWarning, Text: "API retry 1/10: overloaded"},
		{Kind: streaming.KindStatus, Text: "compacting"},
		text("m2", "Fixed: the test now uses a fake clock.\n\n```go\nnow := fake()\n```"),
		{Kind: streaming.KindMessageStop, Message: "m2"},
		{Kind: streaming.KindResult, OK: true, DurationMS: 63000, Turns: 4, Usage: usage},
	}
	got := renderMarkdown(t, Config{}, evs, Summary{Outcome: streaming.Success})
	want := "## Run 1 · claude · `claude-sonnet-4-5`\n" +
		"\n" +
		"<sub>session `abc-123` in `/work`</sub>\n" +
		"\n" +
		"> **Prompt:** Fix the test\n" +
		"\n" +
		"> *thinking: The test fails because the clock is real.*\n" +
		"\n" +
		"I'll run the tests first.\n" +
		"\n" +
		"- ✗ **Bash** `go test ./...` · exit 1 · 1.5s\n" +
		"  ```\n" +
		"  --- FAIL: TestClock\n" +
		"      noise\n" +
		"      noise\n" +
		"  … 6 more lines …\n" +
		"      noise\n" +
		"      noise\n" +
		"  FAIL\n" +
		"  ```\n" +
		"- ✓ **Edit** `clock.go`\n" +
		"\n" +
		"> ⚠️ API retry 1/10: overloaded\n" +
		"\n" +
		"Fixed: the test now uses a fake clock.\n" +
		"\n" +
		"```go\n" +
		"now := fake()\n" +
		"```\n" +
		"\n" +
		"**✓ Done** · 1m03s · 4 turns · 1.2k in, 340 out · $0.0123\n"
	if got != want {
		t.Errorf("transcript differs\n got:\n%s\nwant:\n%s", got, want)
	}
}

// Tool output cannot close its fence; a fence the assistant left open is
// closed at the end of its block, so what follows is not swallowed.
func TestMarkdownFences(t *testing.T) {
	t.Parallel()
	evil := "```\n# not a heading\n````\n~~~\n"
	evs := []streaming.Event{
		{Kind: streaming.KindToolStart, ID: "t1", Name: "Read"},
		{Kind: streaming.KindToolEnd, ID: "t1", Name: "Read", Input: `{"file_path":"x.md"}`, Subject: subj(`{"file_path":"x.md"}`), Status: streaming.ToolOK, Output: evil},
		text("m1", "Here:\n```sh\nls\n"),
		{Kind: streaming.KindMessageStop, Message: "m1"},
		{Kind: streaming.KindResult, OK: true},
	}
	got := renderMarkdown(t, Config{Tools: ToolsFull}, evs, Summary{Outcome: streaming.Success})
	if !strings.Contains(got, "\n  `````\n  ```\n  # not a heading\n  ````\n  ~~~\n  `````\n") {
		t.Errorf("output not fenced safely:\n%s", got)
	}
	if !strings.Contains(got, "Here:\n```sh\nls\n```\n\n**✓ Done**") {
		t.Errorf("open fence not closed:\n%s", got)
	}
	if fence("a ``` b ````` c") != "``````" || fence("plain") != "```" {
		t.Errorf("Fence: %q", fence("a ``` b ````` c"))
	}
}

func TestMarkdownUntrustedText(t *testing.T) {
	t.Parallel()
	evs := []streaming.Event{
		text("m1", "<details><summary>x</summary>\n<!-- hide the rest\nthanks @octocat and @org/team, mail a@b.com\nuse `<b>` and `@x` as is\n\x1b[31mred\n"),
		{Kind: streaming.KindMessageStop, Message: "m1"},
		{Kind: streaming.KindError, Text: "boom <script>\n@admin"},
		{Kind: streaming.KindToolEnd, ID: "t", Name: "a|b*c", Input: "{\"command\":\"echo `x`\"}", Subject: subj("{\"command\":\"echo `x`\"}"), Status: streaming.ToolOK},
		{Kind: streaming.KindRaw, Text: "npm WARN `deprecated`"},
	}
	got := renderMarkdown(t, Config{}, evs, Summary{Outcome: streaming.Incomplete, Reason: "no result"})
	for _, want := range []string{
		"&lt;details>&lt;summary>x&lt;/summary>\n",
		"&lt;!-- hide the rest\n",
		"thanks @\u200bocto", "and @\u200borg/team", "mail a@b.com",
		"use `<b>` and `@x` as is\n",
		"␛[31mred",
		"> **Error:** boom &lt;script>\n> @\u200badmin\n",
		"**a\\|b\\*c** `` echo `x` ``",
		"> `` npm WARN `deprecated` ``",
		"**… Incomplete**: no result",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "\x1b") {
		t.Errorf("raw escape in markdown")
	}
}

func TestMarkdownThinkingModes(t *testing.T) {
	t.Parallel()
	evs := []streaming.Event{
		{Kind: streaming.KindThinkingDelta, Message: "m", Role: streaming.RoleAssistant, Text: "step one\nstep two"},
		{Kind: streaming.KindMessageStop, Message: "m"},
	}
	none := renderMarkdown(t, Config{Thinking: ThinkingNone}, evs, Summary{Outcome: streaming.Success})
	if strings.Contains(none, "step") {
		t.Errorf("thinking shown with none: %s", none)
	}
	full := renderMarkdown(t, Config{Thinking: ThinkingFull}, evs, Summary{Outcome: streaming.Success})
	if !strings.Contains(full, "> *Thinking:* step one\n> step two\n") {
		t.Errorf("full thinking: %s", full)
	}
}

func TestMarkdownRunsAndInterrupt(t *testing.T) {
	t.Parallel()
	evs := []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "codex"},
		text("a", "one"),
		{Kind: streaming.KindResult, OK: false, Reason: "turn.failed: boom"},
		{Kind: streaming.KindSessionStart, Agent: "codex"},
		{Kind: streaming.KindToolStart, ID: "t", Name: "shell", Input: `{"command":"sleep 60"}`, Subject: subj(`{"command":"sleep 60"}`)},
	}
	got := renderMarkdown(t, Config{}, evs, Summary{Outcome: streaming.Incomplete, Interrupted: true})
	if n := len(regexp.MustCompile(`(?m)^## Run \d`).FindAllString(got, -1)); n != 2 {
		t.Errorf("%d run headings:\n%s", n, got)
	}
	for _, want := range []string{"## Run 2 · codex", "**✗ Failed**: turn.failed: boom", "- … **shell** `sleep 60` · incomplete", "**⊘ Interrupted**"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

func TestStepSummary(t *testing.T) {
	t.Parallel()
	f := feed(t, streaming.HandlerFunc(func(*streaming.Event) error { return nil }), []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "claude", Model: "sonnet"},
		{Kind: streaming.KindToolEnd, ID: "1", Name: "Bash", Status: streaming.ToolOK},
		{Kind: streaming.KindToolEnd, ID: "2", Name: "Bash", Status: streaming.ToolError},
		{Kind: streaming.KindToolEnd, ID: "3", Name: "Read", Status: streaming.ToolOK},
		{Kind: streaming.KindResult, OK: true, DurationMS: 5000, Turns: 2,
			Usage: &streaming.Usage{InputTokens: 100, OutputTokens: 50, CacheReadTokens: 1000, CostUSD: 0.5, HasCost: true}},
	}).Run()
	got := StepSummary(f, Summary{Outcome: streaming.Success}, "All good <b>. ```go\nx", "", "")
	want := "### ✓ claude (`sonnet`) succeeded\n" +
		"\n| Duration | Turns | Tokens | Cost | Tool calls |\n|---|---|---|---|---|\n" +
		"| 5.0s | 2 | 100 + 1.0k cached in, 50 out | $0.5000 | 3 (1 failed): Bash ×2, Read |\n" +
		"\n#### Final answer\n\nAll good &lt;b>. ```go\nx\n\n"
	if got != want {
		t.Errorf("summary\n got %q\nwant %q", got, want)
	}
	failed := StepSummary(new(streaming.Run), Summary{Outcome: streaming.Failure, Reason: "error_max_turns", UntilMissing: false}, "", "", "")
	if !strings.Contains(failed, "### ✗ Agent failed\n\nerror\\_max\\_turns\n") || strings.Contains(failed, "Final answer") {
		t.Errorf("failed summary %q", failed)
	}
	until := StepSummary(new(streaming.Run), Summary{Outcome: streaming.Success, UntilMissing: true}, "x", "DONE", "")
	if !strings.Contains(until, "lacks the completion marker** `DONE`") {
		t.Errorf("until summary %q", until)
	}
}

// Blank lines at the start or end of a block are dropped; those inside
// are kept (quoted blocks keep quoting them).
func TestMarkdownBlankLines(t *testing.T) {
	t.Parallel()
	evs := []streaming.Event{
		{Kind: streaming.KindTextDelta, Message: "u", Role: streaming.RoleUser, Text: "\nSay hello\n\nplease\n\n\n"},
		{Kind: streaming.KindMessageStop, Message: "u"},
		text("m", "\n\nHello!\n\n\nBye.\n\n"),
		{Kind: streaming.KindMessageStop, Message: "m"},
	}
	got := renderMarkdown(t, Config{}, evs, Summary{Outcome: streaming.Success})
	want := "## Run 1\n\n> **Prompt:** Say hello\n>\n> please\n\nHello!\n\n\nBye.\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
