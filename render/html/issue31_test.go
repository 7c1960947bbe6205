package html_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A thinking block's gist is drawn, not shown as markdown source: Codex's
// summaries start with a bold title.
func TestPageThinkingGistDrawn(t *testing.T) {
	t.Parallel()
	out := page(t, fixture(t, "codex/01-current-reasoning-command-filechange-todo.jsonl"))
	i := strings.Index(out, `class="gist"`)
	if i < 0 {
		t.Fatal("no thinking gist on the page")
	}
	gist := out[i:min(len(out), i+200)]
	if strings.Contains(gist, "**") || !strings.Contains(gist, "<strong>Inspecting the test</strong>") {
		t.Errorf("gist %q", gist)
	}
}

// A subagent's answer is drawn from markdown, as the main answer is, and
// shown once: the Task's result that repeats the subagent's last message
// (the demo) is left out; one that is the only answer (corpus claude/01)
// is drawn.
func TestPageSubagentAnswer(t *testing.T) {
	t.Parallel()
	demo, err := os.ReadFile(filepath.Join("..", "..", "cmd", "demo", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := page(t, demo)
	if n := strings.Count(out, "Totals are float64 sums"); n != 1 {
		t.Errorf("the demo's subagent answer is on the page %d times", n)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "corpus", "claude", "01-subagents-parallel-task-no-partial.jsonl"))
	if err != nil {
		t.Skip("no corpus:", err)
	}
	out = page(t, data)
	if strings.Contains(out, "## File Locations") || !strings.Contains(out, "<h2>File Locations for Test Files</h2>") {
		t.Error("the subagent's markdown answer is not drawn")
	}
}

// Tool calls are on the page in the order they started, not the order
// they ended: the demo's TodoWrite ends first and its Bash last, its
// Read before the Task started ahead of it.
func TestPageCallsInCallOrder(t *testing.T) {
	t.Parallel()
	demo, err := os.ReadFile(filepath.Join("..", "..", "cmd", "demo", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := page(t, demo)
	at := 0
	for _, card := range []string{`"name">Grep</span> <code class="subject">internal/<`, `"name">Bash</span> <code class="subject">go test ./internal/orders -run`,
		`class="item plan`, `"name">Task</span>`, `"name">Read</span>`, `"name">Edit</span>`} {
		i := strings.Index(out[at:], card)
		if i < 0 {
			t.Fatalf("%s is not after the calls started before it", card)
		}
		at += i
	}
}
