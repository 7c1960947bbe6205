package render

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/golden"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// The goldens of issue 12, each at widths 40 and 100: the escape codes
// written (.golden) and the screen a terminal emulator shows (.screen).

// everyMarkdown uses every construct the live renderer styles.
const everyMarkdown = "# Checkout totals\n\n" +
	"The cart sums **money** as *floats*, so `Total()` drifts; see [the issue](https://example.com/shop/issues/42) and ~~the old fix~~.\n\n" +
	"## What changes\n\n" +
	"> Store cents as `int64`, and guard the slice with a mutex so that concurrent calls to Add cannot interleave.\n\n" +
	"- A list item long enough to wrap onto a second row, whose continuation hangs under its text\n" +
	"- Nested:\n  1. first step\n  2. second step, also long enough to need more than one row at forty\n" +
	"- [x] a done task\n\n" +
	"| Field | Type | Meaning |\n|:------|:----:|--------:|\n| items | []int64 | prices in cents |\n| mu | sync.Mutex | guards items |\n\n" +
	"| Alpha column | Beta column | Gamma column | Delta column | Epsilon column |\n|---|---|---|---|---|\n| one two three four | five six seven eight | nine ten eleven | twelve thirteen | fourteen fifteen |\n\n" +
	"```go\n// Add appends a price.\nfunc (c *Cart) Add(p int64) {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n\tc.items = append(c.items, p) // cents\n}\n```\n\n" +
	"```python\ndef total(items: list[int]) -> int:\n    \"\"\"Sum in cents.\"\"\"\n    return sum(items) + 0\n```\n\n" +
	"---\n\nThat is all.\n"

var issue12Fixtures = []prettyFixture{
	{name: "20-subagent-replay", run: func(d *driver) {
		// A replay: no frame until the end.
		d.text("m1", "I'll ask a subagent to review the arithmetic.\n")
		d.push(streaming.Event{Kind: streaming.KindMessageStop, Message: "m1"})
		d.push(streaming.Event{Kind: streaming.KindToolStart, ID: "task1", Name: "Task", Input: `{"description":"Review money arithmetic","prompt":"Look at cart.go"}`, Subject: "Review money arithmetic"})
		d.push(streaming.Event{Kind: streaming.KindMessageStart, Message: "sub1", Role: "assistant", Parent: "task1"})
		d.push(streaming.Event{Kind: streaming.KindToolStart, ID: "g1", Name: "Grep", Input: `{"pattern":"Total","path":"internal/orders"}`, Subject: "Total", Parent: "task1"})
		d.push(streaming.Event{Kind: streaming.KindToolEnd, ID: "g1", Output: "internal/orders/cart.go:27:func (c *Cart) Total() float64 {\n", Parent: "task1"})
		d.push(streaming.Event{Kind: streaming.KindToolStart, ID: "r1", Name: "Read", Input: `{"file_path":"internal/orders/cart.go"}`, Subject: "internal/orders/cart.go", Parent: "task1"})
		d.push(streaming.Event{Kind: streaming.KindToolEnd, ID: "r1", Output: "27\tfunc (c *Cart) Total() float64 {\n28\t\tvar t float64\n", Parent: "task1"})
		d.push(streaming.Event{Kind: streaming.KindTextDelta, Message: "sub1", Parent: "task1", Text: "Totals are **float64** sums; Add appends without a lock."})
		d.push(streaming.Event{Kind: streaming.KindMessageStop, Message: "sub1"})
		d.push(streaming.Event{Kind: streaming.KindToolEnd, ID: "task1", Output: "Totals are float64 sums; Add appends without a lock.", DurationMS: 12000})
		d.text("m2", "The subagent confirms it.\n")
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true, Turns: 4})
	}},
	{name: "21-minified-output", run: func(d *driver) {
		d.every = 2
		d.toolStart("r1", "Read", `{"file_path":"/srv/app/static/bundle.min.js"}`)
		var b strings.Builder
		for b.Len() < 210_000 {
			fmt.Fprintf(&b, "function f%d(a,b){return a+b*%d};", b.Len(), b.Len()%97)
		}
		d.toolEnd("r1", streaming.ToolOK, b.String()+"\n", nil)
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "22-seven-lines", run: func(d *driver) {
		d.every = 2
		d.toolStart("b1", "Bash", `{"command":"go test ./..."}`)
		d.toolEnd("b1", streaming.ToolOK, "ok  \tshop/cart\t0.12s\nok  \tshop/orders\t0.31s\nok  \tshop/payments\t0.08s\nok  \tshop/users\t0.22s\nok  \tshop/web\t1.02s\n?   \tshop/cmd\t[no test files]\nPASS\n", streaming.IntPtr(0))
		d.toolStart("b2", "Bash", `{"command":"seq 1 9"}`)
		d.toolEnd("b2", streaming.ToolOK, "1\n2\n3\n4\n5\n6\n7\n8\n9\n", streaming.IntPtr(0))
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "23-every-markdown", run: func(d *driver) {
		d.every = 9
		d.text("m1", everyMarkdown)
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "24-edits", run: func(d *driver) {
		d.every = 3
		edit := `{"file_path":"/home/dev/shop/internal/orders/cart.go","old_string":"type Cart struct {\n\titems []float64\n}","new_string":"type Cart struct {\n\tmu    sync.Mutex\n\titems []int64 // cents\n}"}`
		d.editStart("e1", "Edit", edit)
		d.toolEnd("e1", streaming.ToolOK, "The file /home/dev/shop/internal/orders/cart.go has been updated.", nil)
		multi := `{"file_path":"/home/dev/shop/internal/orders/cart.go","edits":[{"old_string":"func (c *Cart) Add(p float64) {","new_string":"func (c *Cart) Add(p int64) {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()"},{"old_string":"var t float64","new_string":"var t int64"}]}`
		d.editStart("e2", "MultiEdit", multi)
		d.toolEnd("e2", streaming.ToolOK, "Applied 2 edits to /home/dev/shop/internal/orders/cart.go", nil)
		write := `{"file_path":"/home/dev/shop/internal/orders/money.go","content":"package orders\n\n// Cents is an amount of money.\ntype Cents int64\n"}`
		d.editStart("e3", "Write", write)
		d.toolEnd("e3", streaming.ToolOK, "File created successfully", nil)
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "25-todowrite", run: func(d *driver) {
		d.every = 2
		todo := func(id string, statuses ...string) {
			texts := []string{"Find the flaky test", "Fix the race in Cart.Add", "Run the tests twenty times"}
			var e []streaming.PlanEntry
			var in []string
			done := 0
			for i, s := range statuses {
				e = append(e, streaming.PlanEntry{Text: texts[i], Status: parsers.PlanStatus(s)})
				in = append(in, fmt.Sprintf(`{"content":%q,"status":%q}`, texts[i], s))
				if s == "completed" {
					done++
				}
			}
			d.push(streaming.Event{Kind: streaming.KindToolStart, ID: id, Name: "TodoWrite", Input: `{"todos":[` + strings.Join(in, ",") + `]}`,
				Title: fmt.Sprintf("%d todos, %d done", len(statuses), done), Subject: fmt.Sprintf("%d todos, %d done", len(statuses), done)})
			d.push(streaming.Event{Kind: streaming.KindPlan, ID: id, Entries: e})
			d.toolEnd(id, streaming.ToolOK, "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.", nil)
		}
		todo("t1", "in_progress", "pending", "pending")
		d.text("m1", "Found it in `checkout_test.go`.\n")
		d.push(streaming.Event{Kind: streaming.KindMessageStop, Message: "m1"})
		todo("t2", "completed", "in_progress", "pending")
		todo("t3", "completed", "in_progress", "pending") // the same list: not printed again
		todo("t4", "completed", "completed", "completed")
		// A plan with no call (Codex, ACP), updated while it waits behind a
		// running call: one checklist, the latest.
		d.toolStart("b1", "Bash", `{"command":"go test -count=20 ./..."}`)
		d.push(streaming.Event{Kind: streaming.KindPlan, Entries: []streaming.PlanEntry{{Text: "Ship it", Status: streaming.PlanPending}}})
		d.push(streaming.Event{Kind: streaming.KindPlan, Entries: []streaming.PlanEntry{{Text: "Ship it", Status: streaming.PlanInProgress}}})
		d.toolEnd("b1", streaming.ToolOK, "ok\n", streaming.IntPtr(0))
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "26-cjk-latin", run: func(d *driver) {
		d.every = 5
		d.text("m1", "ファイルエクスプローラーでexplorerを開き、設定ファイルconfig.yamlを確認してください。次にgo test ./...を実行します。混在したテキストでも単語は分割されません。\n\n")
		d.text("m1", "한국어와 English가 섞인 문장도 자연스럽게 줄바꿈됩니다 without splitting words.\n")
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "27-long-cwd", run: func(d *driver) {
		d.every = 2
		d.push(streaming.Event{Kind: streaming.KindSessionStart, SessionID: "4f1c2a9e-7b3d-4e8f-9a0b-1c2d3e4f5a6b", Agent: "claude", Model: "claude-sonnet-4-5-20250929",
			CWD: "/home/ari/repos/github.com/agentfmt/agentfmt-worktrees/feature-live-terminal-renderer"})
		d.text("m1", "Ready.\n")
		d.push(streaming.Event{Kind: streaming.KindUsage, Usage: &streaming.Usage{InputTokens: 1200, OutputTokens: 30}})
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true, Turns: 1})
	}},
}

// editStart starts a call whose Edits the parsers layer fills, as the
// decoder does.
func (d *driver) editStart(id, name, input string) {
	d.push(streaming.Event{Kind: streaming.KindToolStart, ID: id, Name: name, Input: input, Subject: subj(input),
		Edits: claudeEdits(name, input)})
}

func TestPrettyIssue12Golden(t *testing.T) {
	t.Parallel()
	for _, f := range issue12Fixtures {
		for _, width := range []int{40, 100} {
			t.Run(fmt.Sprintf("%s-w%d", f.name, width), func(t *testing.T) {
				f := f
				f.cfg.Width = width
				_, out, _ := f.render(t)
				rows := vtcheck.Screen(out, width)
				name := fmt.Sprintf("%s-w%d", f.name, width)
				golden.Check(t, filepath.Join("testdata", "pretty", name+".golden"), out)
				golden.Check(t, filepath.Join("testdata", "pretty", name+".screen"), []byte(strings.Join(rows, "\n")+"\n"))
				checkRows(t, rows, width)
			})
		}
	}
}

// checkRows: no row is wider than the terminal, none ends in a space.
func checkRows(t *testing.T, rows []string, width int) {
	t.Helper()
	for i, r := range rows {
		if w := termwrap.Width(r); w > width {
			t.Errorf("row %d is %d cells wide, the terminal %d: %q", i, w, width, r)
		}
	}
}

var _ = os.Getenv
var _ = time.Second
