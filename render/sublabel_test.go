package render

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// Two subagents at once (corpus claude/01): their calls interleave, and
// each line of a subagent, in plain and in pretty (live and in the
// scrollback), says whose it is by the label of its Task; the main
// agent's lines have none.
func TestSubagentLinesLabelled(t *testing.T) {
	t.Parallel()
	d := newDriver(t, Config{Width: 100, Height: 30})
	d.push(streaming.Event{Kind: streaming.KindToolStart, ID: "a", Name: "Task", Subject: "Explore codebase structure"})
	d.push(streaming.Event{Kind: streaming.KindToolStart, ID: "b", Name: "Task", Subject: "Find test files"})
	d.push(streaming.Event{Kind: streaming.KindToolStart, ID: "a1", Parent: "a", Name: "Bash", Subject: "ls -la"})
	d.push(streaming.Event{Kind: streaming.KindToolStart, ID: "b1", Parent: "b", Name: "Glob", Subject: "**/*_test.go"})
	d.push(streaming.Event{Kind: streaming.KindToolStart, ID: "a2", Parent: "a", Name: "Read", Subject: "main.go"})
	d.frame()
	term := vtcheck.NewTerm(100, 30)
	defer term.Close()
	term.Write(d.out.Bytes())
	live := strings.Join(term.Rows(), "\n")
	d.push(streaming.Event{Kind: streaming.KindToolEnd, ID: "b1", Parent: "b", Status: streaming.ToolOK, Output: "No files found"})
	d.push(streaming.Event{Kind: streaming.KindToolEnd, ID: "a1", Parent: "a", Status: streaming.ToolOK, Output: "main.go"})
	d.push(streaming.Event{Kind: streaming.KindToolEnd, ID: "a2", Parent: "a", Status: streaming.ToolOK, Output: "package main"})
	d.push(streaming.Event{Kind: streaming.KindMessageStart, Message: "m", Role: streaming.RoleAssistant, Parent: "a"})
	d.push(streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Parent: "a", Text: "One file, no tests.\n"})
	d.push(streaming.Event{Kind: streaming.KindMessageStop, Message: "m", Parent: "a"})
	d.push(streaming.Event{Kind: streaming.KindToolEnd, ID: "b", Status: streaming.ToolOK, Output: "none"})
	d.push(streaming.Event{Kind: streaming.KindToolEnd, ID: "a", Status: streaming.ToolOK, Output: "done"})
	pretty, plain := d.finish(false)
	labelA, labelB := "Explore codebase st… ┃ ", "Find test files      ┃ "
	for name, out := range map[string]string{"live": live, "pretty": strings.Join(vtcheck.Screen(pretty, 100), "\n"), "plain": string(plain)} {
		for _, l := range strings.Split(out, "\n") {
			var want string
			switch {
			case strings.Contains(l, "Task "), strings.Contains(l, "─"), strings.TrimSpace(l) == "":
				want = ""
			case strings.Contains(l, "Bash"), strings.Contains(l, "Read"), strings.Contains(l, "main.go"),
				strings.Contains(l, "package main"), strings.Contains(l, "One file"):
				want = labelA
			case strings.Contains(l, "Glob"), strings.Contains(l, "No files"):
				want = labelB
			default:
				continue
			}
			if got := strings.HasPrefix(l, "  "+want); want != "" && !got || want == "" && strings.Contains(l, "┃") {
				t.Errorf("%s: %q: want label %q", name, l, want)
			}
		}
		for _, w := range []string{"Bash ls -la", "Glob **/*_test.go", "Read main.go"} {
			if !strings.Contains(out, w) {
				t.Errorf("%s lacks %q:\n%s", name, w, out)
			}
		}
	}
}
