package html_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/golden"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/render/html"
	"github.com/agentfmt/agentfmt/streaming"
)

// goldenFixtures are the inputs whose pages are kept under testdata/html:
// the fixtures written for the page (testdata/html/*.jsonl) and a few of
// the other agents' fixtures that show what those lack (subagents,
// several runs, a truncated stream, plans, diffs).
var goldenFixtures = []string{
	"claude/03-subagent-task-interleaved-with-parent.jsonl",
	"claude/07-multiple-runs-in-one-log.jsonl",
	"claude/09-truncated-partial-stream-without-result.jsonl",
	"acp/01-chunks-thought-tool-diff.jsonl",
	"acp/03-plan-updates-mode.jsonl",
	"codex/01-current-reasoning-command-filechange-todo.jsonl",
}

// goldenName is where the page of a fixture is kept.
func goldenName(rel string) string {
	dir, base := filepath.Split(rel)
	base = strings.TrimSuffix(base, ".jsonl") + ".html"
	if dir != "html/" {
		base = strings.TrimSuffix(dir, "/") + "-" + base
	}
	return filepath.Join("..", "..", "testdata", "html", base)
}

// foldAssets replaces the page's embedded stylesheet (page.css, which
// code.css's highlighting rules follow) and script (page.js), where they stand
// as they are right after their opening tag, by one line naming the file
// and its hash: every golden holds the page, and a change to the style
// sheet changes one line of each rather than three hundred. Anything else
// is left whole, and so fails as before.
func foldAssets(page string) string {
	for _, a := range []struct{ open, body, name string }{
		{"<style>", html.PageCSS + html.CodeCSS, "page.css and code.css"},
		{"<script>", html.PageJS, "page.js"},
	} {
		if strings.Count(page, a.open+a.body) == 1 {
			sum := sha256.Sum256([]byte(a.body))
			page = strings.Replace(page, a.open+a.body, fmt.Sprintf("%s/* %s sha256:%x */\n", a.open, a.name, sum[:8]), 1)
		}
	}
	return page
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.CheckString(t, name, foldAssets(got))
}

// TestGolden renders each fixture's page and compares it with its golden
// file. The pages are written one element per line where the content
// allows, so that a change reads as a small diff.
func TestGolden(t *testing.T) {
	t.Parallel()
	own, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "html", "*.jsonl"))
	if len(own) == 0 {
		t.Fatal("no fixtures in testdata/html")
	}
	fixtures := append([]string(nil), goldenFixtures...)
	for _, f := range own {
		fixtures = append(fixtures, "html/"+filepath.Base(f))
	}
	for _, rel := range fixtures {
		t.Run(rel, func(t *testing.T) {
			got := page(t, fixture(t, rel))
			checkGolden(t, goldenName(rel), got)
		})
	}
	t.Run("events/edits-plan-images", func(t *testing.T) {
		checkGolden(t, filepath.Join("..", "..", "testdata", "html", "events-edits-plan-images.html"), eventsPage(t, editEvents()))
	})
}

// eventsPage renders events through a session (not closed: the page's
// Finish ends what is open), as the command does: the renderer reads the
// session's state.
func eventsPage(t testing.TB, evs []streaming.Event) string {
	var b bytes.Buffer
	r, err := render.New("html", &b, render.Config{})
	if err != nil {
		t.Fatal(err)
	}
	s := streaming.NewSession(r, streaming.Options{})
	for i := range evs {
		if err := s.Push(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Finish(render.Summary{Outcome: streaming.Success}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A 1×1 PNG, and a base64 text too large for a thumbnail.
const (
	tinyPNG  = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
	pngShown = "data:image/png;base64," + tinyPNG
)

// editEvents is a run with file edits (old/new text, an agent's own
// diff, a new file), a plan in every status and images in an answer: the
// normalised fields no parser of this branch fills yet.
func editEvents() []streaming.Event {
	big := "data:image/png;base64," + strings.Repeat("AAAA", 70_000)
	answer := "Done. A screenshot: ![tiny dot](" + pngShown + ")\n\nA large one: ![big](" + big + ")\n\n" +
		"A remote one: ![logo](https://example.com/logo.png) and a local [file](/home/dev/app/main.py).\n"
	return []streaming.Event{
		{Kind: streaming.KindSessionStart, Agent: "acp", SessionID: "sess_9", Model: "gemini-2.5-pro", CWD: "/home/dev/app"},
		{Kind: streaming.KindPlan, Entries: []streaming.PlanEntry{
			{Text: "Read main.py", Status: streaming.PlanCompleted},
			{Text: "Rename greet to hello", Status: streaming.PlanInProgress, Priority: "high"},
			{Text: "Add <tests>", Status: streaming.PlanPending},
			{Text: "Rewrite in Rust", Status: streaming.PlanCancelled},
		}},
		{Kind: streaming.KindToolStart, ID: "t1", Name: "edit", Title: "Rename greet", Subject: "main.py",
			Edits: []streaming.FileEdit{{Path: "main.py", Op: streaming.EditModify,
				Old: "def greet(name):\n    print('hi', name)\n\ngreet('x')\n",
				New: "def hello(name):\n    print('hi', name)\n\nhello('x')\n"}}},
		{Kind: streaming.KindToolEnd, ID: "t1", Status: streaming.ToolOK, DurationMS: 120},
		{Kind: streaming.KindToolStart, ID: "t2", Name: "apply_patch", Subject: "README.md, notes.txt"},
		{Kind: streaming.KindToolEnd, ID: "t2", Status: streaming.ToolOK, Edits: []streaming.FileEdit{
			{Path: "README.md", Op: streaming.EditModify, Diff: "@@ -1,2 +1,2 @@\n # App\n-Says greet.\n+Says hello.\n"},
			{Path: "notes.txt", Op: streaming.EditCreate, New: "first note\n"},
			{Path: "old.txt", Op: streaming.EditDelete, Old: "gone\n"},
			{Path: "/home/dev/app/abs.txt", Op: streaming.EditModify, Old: "a\n", New: "b\n"},
		}},
		{Kind: streaming.KindMessageStart, Message: "a1", Role: streaming.RoleAssistant},
		{Kind: streaming.KindTextDelta, Message: "a1", Role: streaming.RoleAssistant, Text: answer},
		{Kind: streaming.KindMessageStop, Message: "a1", Role: streaming.RoleAssistant},
		{Kind: streaming.KindError, Text: "quota nearly used up", Level: streaming.LevelWarning},
		{Kind: streaming.KindNotice, Text: "1 contract violation repaired"},
		{Kind: streaming.KindResult, OK: true, DurationMS: 2500, Turns: 1,
			Usage: &streaming.Usage{InputTokens: 1200, OutputTokens: 300, CostUSD: 0.02, HasCost: true}},
	}
}

// The renderer is registered as a format.
var _ = html.New
