package render

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/golden"
	"github.com/agentfmt/agentfmt/internal/palette"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// prettyFixture is an event sequence built in Go, with the configuration
// it is rendered with (width 80, height 24, colour on unless changed).
type prettyFixture struct {
	name        string
	cfg         Config
	interrupted bool
	run         func(d *driver)
}

const answerMD = `# Fixing the flaky test

The test **races**: ` + "`Cart.Add`" + ` appends from several goroutines.

` + "```go" + `
func (c *Cart) Add(p int64) {
	c.mu.Lock()
	c.items = append(c.items, p)
	c.mu.Unlock()
}
` + "```" + `

- **Cause 1:** no lock around the slice.
- **Cause 2:** money summed as ` + "`float64`" + `.
`

var prettyFixtures = []prettyFixture{
	{name: "01-text-markdown", run: func(d *driver) {
		d.every = 7
		d.push(streaming.Event{Kind: streaming.KindSessionStart, SessionID: "s-1", Agent: "claude", Model: "claude-sonnet-4-5", CWD: "/home/dev/shop"})
		d.advance(400 * time.Millisecond)
		d.text("m1", answerMD)
		d.advance(2 * time.Second)
		d.push(streaming.Event{Kind: streaming.KindUsage, Usage: &streaming.Usage{InputTokens: 1200, OutputTokens: 340, CostUSD: 0.0123, HasCost: true}})
		d.frame()
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true, DurationMS: 2400, Turns: 1,
			Usage: &streaming.Usage{InputTokens: 1200, OutputTokens: 340, CostUSD: 0.0123, HasCost: true}})
	}},
	{name: "02-parallel-tools", run: func(d *driver) {
		d.every = 3
		d.push(streaming.Event{Kind: streaming.KindSessionStart, SessionID: "s-2", Agent: "claude"})
		d.text("m1", "Let me look at three things at once.\n")
		d.push(streaming.Event{Kind: streaming.KindMessageStop, Message: "m1"})
		d.toolStart("t1", "Bash", `{"command":"go test ./internal/orders -run TestCheckout -count=5"}`)
		d.toolStart("t2", "Grep", `{"pattern":"func Total","path":"internal/"}`)
		d.toolStart("t3", "Read", `{"file_path":"/home/dev/shop/internal/orders/cart.go"}`)
		d.frame()
		d.advance(1500 * time.Millisecond)
		d.frame()
		// The last one finishes first: it waits in the region.
		d.toolEnd("t3", streaming.ToolOK, "package orders\n\ntype Cart struct {\n\titems []float64\n}\n", nil)
		d.frame()
		d.advance(time.Second)
		d.toolEnd("t1", streaming.ToolError, "=== RUN   TestCheckout\n    checkout_test.go:57: total = 41.99, want 42.00\n--- FAIL: TestCheckout (0.00s)\nFAIL\nexit status 1\nFAIL\tgithub.com/acme/shop/internal/orders\t0.214s\n", streaming.IntPtr(1))
		d.frame()
		d.toolEnd("t2", streaming.ToolOK, "internal/orders/cart.go:27:func (c *Cart) Total() float64 {\n", nil)
		d.frame()
		d.text("m2", "The test fails 2 times in 5.\n")
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true, DurationMS: 5100, Turns: 3})
	}},
	{name: "03-thinking-summary", run: func(d *driver) {
		d.every = 5
		d.push(streaming.Event{Kind: streaming.KindSessionStart, SessionID: "s-3"})
		d.stream(streaming.KindThinkingDelta, "m1", "The user wants the flaky checkout test fixed. First I should find the test, then run it a few times to see how it fails, and only then read the code.")
		d.advance(3200 * time.Millisecond)
		d.text("m1", "I'll start by locating the test.\n")
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "04-thinking-full", cfg: Config{Thinking: ThinkingFull}, run: func(d *driver) {
		d.every = 9
		d.stream(streaming.KindThinkingDelta, "m1", "Two bugs: the test races (goroutines and a sleep) and money is a float64. Store cents as int64 and guard the slice with a mutex; make the test wait on a WaitGroup.\nThat should do it.")
		d.text("m1", "Two causes, both fixed.")
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "05-subagent", run: func(d *driver) {
		d.every = 4
		d.text("m1", "I'll ask a subagent to review the arithmetic.\n")
		d.push(streaming.Event{Kind: streaming.KindToolStart, ID: "task1", Name: "Task", Input: `{"description":"Review money arithmetic","prompt":"Look at cart.go"}`, Subject: subj(`{"description":"Review money arithmetic","prompt":"Look at cart.go"}`)})
		d.toolStart("r1", "Read", `{"file_path":"internal/orders/checkout_test.go"}`)
		d.push(streaming.Event{Kind: streaming.KindMessageStart, Message: "sub1", Role: "assistant", Parent: "task1"})
		d.push(streaming.Event{Kind: streaming.KindToolStart, ID: "g1", Name: "Grep", Input: `{"pattern":"Total","path":"internal/orders"}`, Subject: subj(`{"pattern":"Total","path":"internal/orders"}`), Parent: "task1"})
		d.frame()
		d.push(streaming.Event{Kind: streaming.KindToolEnd, ID: "g1", Output: "internal/orders/cart.go:27:func (c *Cart) Total() float64 {\n"})
		d.frame()
		d.toolEnd("r1", streaming.ToolOK, "41\tfunc TestCheckoutTotals(t *testing.T) {\n42\t\tcart := NewCart()\n", nil)
		d.frame()
		d.streamChunks(streaming.KindTextDelta, "sub1", "task1", "Totals are float64 sums in cart.go (line 27), and Add appends without a lock.", 6)
		d.push(streaming.Event{Kind: streaming.KindMessageStop, Message: "sub1"})
		d.frame()
		d.advance(12 * time.Second)
		d.push(streaming.Event{Kind: streaming.KindToolEnd, ID: "task1", Output: "Totals are float64 sums in cart.go (line 27), and Add appends without a lock."})
		d.text("m2", "The subagent confirms it.\n")
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true, Turns: 4})
	}},
	{name: "06-long-lines", run: func(d *driver) {
		d.every = 11
		long := strings.Repeat("lorem ipsum dolor sit amet ", 12)
		exact := strings.Repeat("0123456789", 8)
		d.text("m1", long+"\n"+exact+"\n"+exact+"x\nend.")
		d.frame()
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "07-wide-chars", run: func(d *driver) {
		d.every = 3
		d.text("m1", "日本語のテキストと絵文字 🎉 が混ざった行: ма\u0301ма (combining accent), 👨\u200d👩\u200d👧 family, 한국어도.\n")
		d.text("m1", strings.Repeat("表", 45)+"\n")
		d.streamChunks(streaming.KindTextDelta, "m1", "", "split rune: 日本 done\n", 2)
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "08-failed-run", run: func(d *driver) {
		d.every = 5
		d.push(streaming.Event{Kind: streaming.KindSessionStart, SessionID: "s-8"})
		d.text("m1", "Running the migration.\n")
		d.toolStart("t1", "Bash", `{"command":"make migrate"}`)
		d.frame()
		d.toolEnd("t1", streaming.ToolError, "migrate: connection refused\n", streaming.IntPtr(2))
		d.push(streaming.Event{Kind: streaming.KindError, Text: "API Error: 529 overloaded", Fatal: true})
		d.push(streaming.Event{Kind: streaming.KindResult, OK: false, Reason: "error_during_execution: API Error: 529 overloaded", DurationMS: 61000, Turns: 2,
			Usage: &streaming.Usage{InputTokens: 5000, OutputTokens: 200, CacheReadTokens: 70000, CostUSD: 0.05, HasCost: true}})
	}},
	{name: "09-interrupted", interrupted: true, run: func(d *driver) {
		d.every = 4
		d.push(streaming.Event{Kind: streaming.KindSessionStart, SessionID: "s-9"})
		d.toolStart("t1", "Bash", `{"command":"sleep 600"}`)
		d.text("m1", "While that runs, here is a partial line")
		d.advance(7 * time.Second)
		d.frame()
	}},
	{name: "10-incomplete", run: func(d *driver) {
		d.every = 4
		d.text("m1", "Starting.\n")
		d.toolStart("t1", "Edit", `{"file_path":"main.go"}`)
		d.push(streaming.Event{Kind: streaming.KindToolOutputDelta, ID: "t1", Text: "applying hunk 1\napplying hunk 2\n"})
		d.frame()
	}},
	{name: "11-overflow", cfg: Config{Height: 8}, run: func(d *driver) {
		d.every = 2
		for i := 0; i < 9; i++ {
			id := string(rune('a' + i))
			d.toolStart(id, "Read", `{"file_path":"file-`+id+`.go"}`)
		}
		d.frame()
		// All but the first finish: the region would outgrow the screen.
		for i := 1; i < 9; i++ {
			d.toolEnd(string(rune('a'+i)), streaming.ToolOK, "line one\nline two\n", nil)
			d.frame()
		}
		d.toolEnd("a", streaming.ToolOK, "", nil)
		d.text("m1", "All read.\n")
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "12-misc-events", run: func(d *driver) {
		d.every = 3
		d.push(streaming.Event{Kind: streaming.KindRaw, Text: "Warning: \x1b]0;pwned\x07 banner\tline"})
		d.push(streaming.Event{Kind: streaming.KindSessionStart, SessionID: "s-12"})
		d.push(streaming.Event{Kind: streaming.KindMessageStart, Message: "u1", Role: streaming.RoleUser})
		d.push(streaming.Event{Kind: streaming.KindTextDelta, Message: "u1", Role: streaming.RoleUser, Text: "fix the flaky test\nplease"})
		d.push(streaming.Event{Kind: streaming.KindMessageStop, Message: "u1"})
		d.push(streaming.Event{Kind: streaming.KindStatus, Text: "compacting context"})
		d.push(streaming.Event{Kind: streaming.KindStatus, Text: "API retry 2/10 in 4s: overloaded", Level: streaming.LevelWarning})
		d.frame()
		d.push(streaming.Event{Kind: streaming.KindPlan, Entries: []streaming.PlanEntry{{Text: "Find the test", Status: "completed"}, {Text: "Fix the race", Status: "in_progress"}, {Text: "Run it 20 times"}}})
		d.push(streaming.Event{Kind: streaming.KindPermissionRequest, ID: "p1", Name: "Bash", Title: "rm -rf build", Options: []streaming.PermissionOption{{Name: "Allow"}, {Name: "Deny"}}})
		d.push(streaming.Event{Kind: streaming.KindPermissionResponse, ID: "p1", Choice: "Allow"})
		d.push(streaming.Event{Kind: streaming.KindModeChange, From: "default", To: "plan"})
		d.push(streaming.Event{Kind: streaming.KindUnknown, Type: "stream_event.ping"})
		d.push(streaming.Event{Kind: streaming.KindNotice, Text: "skipped a line of 2 GiB"})
		d.toolStart("t1", "Bash", `{"command":"ls --color"}`)
		d.push(streaming.Event{Kind: streaming.KindToolOutputDelta, ID: "t1", Text: "\x1b[34mbuild\x1b[0m\n"})
		d.frame()
		d.toolEnd("t1", streaming.ToolOK, "\x1b[34mbuild\x1b[0m\n\x1b[2Jmain.go\n", streaming.IntPtr(0))
		d.text("m1", "Text with a \x1b[31mred\x1b[0m escape and a bell\a.\n")
		d.pushAs(streaming.Final, streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Text: "Rewritten text.\n"})
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "13-no-color", cfg: Config{palette: palette.New(false)}, run: func(d *driver) {
		d.every = 5
		d.text("m1", answerMD)
		d.toolStart("t1", "Bash", `{"command":"go vet ./..."}`)
		d.frame()
		d.toolEnd("t1", streaming.ToolOK, "", streaming.IntPtr(0))
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "14-tools-full-and-none", cfg: Config{Tools: ToolsFull, ToolLines: 2}, run: func(d *driver) {
		d.every = 2
		d.toolStart("t1", "Bash", `{"command":"seq 1 9"}`)
		d.toolEnd("t1", streaming.ToolOK, "1\n2\n3\n4\n5\n6\n7\n8\n9\n"+strings.Repeat("wide output ", 10)+"\n", nil)
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "16-allow-color", cfg: Config{AllowColor: true}, run: func(d *driver) {
		d.every = 2
		d.toolStart("t1", "Bash", `{"command":"ls --color"}`)
		d.push(streaming.Event{Kind: streaming.KindToolOutputDelta, ID: "t1", Text: "\x1b[1;34mbuild\x1b[0m\n"})
		d.frame()
		d.toolEnd("t1", streaming.ToolOK, "\x1b[1;34mbuild\x1b[0m\n\x1b[2Jmain.go \x1b[38;5;208morange "+strings.Repeat("long ", 20)+"\x1b[39m\n", streaming.IntPtr(0))
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "17-text-behind-running-tool", cfg: Config{Height: 8}, run: func(d *driver) {
		d.every = 10
		d.toolStart("t1", "Bash", `{"command":"make test"}`)
		d.push(streaming.Event{Kind: streaming.KindToolOutputDelta, ID: "t1", Text: "ok  \tpkg/a\t0.1s\nok  \tpkg/b\t0.3s\n"})
		for i := 0; i < 12; i++ {
			d.text("m1", "While the tests run, line "+strconv.Itoa(i)+" of the explanation.\n")
		}
		d.advance(4 * time.Second)
		d.frame()
		d.toolEnd("t1", streaming.ToolOK, "ok  \tpkg/a\t0.1s\nok  \tpkg/b\t0.3s\nok  \tpkg/c\t0.2s\n", streaming.IntPtr(0))
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}},
	{name: "15-two-runs", run: func(d *driver) {
		d.every = 6
		d.push(streaming.Event{Kind: streaming.KindSessionStart, SessionID: "run-1"})
		d.text("m1", "First run.\n")
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true, Turns: 1})
		d.frame()
		d.push(streaming.Event{Kind: streaming.KindSessionStart, SessionID: "run-2"})
		d.text("m2", "Second run.\n")
		d.push(streaming.Event{Kind: streaming.KindResult, OK: false, Reason: "error_max_turns"})
	}},
}

func (f prettyFixture) render(t testing.TB) (*driver, []byte, []byte) {
	d := newDriver(t, f.cfg)
	f.run(d)
	pretty, plain := d.finish(f.interrupted)
	return d, pretty, plain
}

// TestPrettyGolden compares the exact bytes, escape codes included (shown
// as ⟨ESC⟩ in the files, see internal/golden), and the emulated screen,
// with the files in testdata/pretty.
func TestPrettyGolden(t *testing.T) {
	t.Parallel()
	for _, f := range prettyFixtures {
		t.Run(f.name, func(t *testing.T) {
			_, out, _ := f.render(t)
			screen := strings.Join(vtcheck.Screen(out, 80), "\n") + "\n"
			golden.Check(t, filepath.Join("testdata", "pretty", f.name+".golden"), out)
			golden.Check(t, filepath.Join("testdata", "pretty", f.name+".screen"), []byte(screen))
		})
	}
}

// TestPrettyScreenMatchesPlain replays every fixture, colour on and off,
// through a terminal emulator: the final screen holds every assistant text
// line exactly once and in order, every tool name, and the text of the
// plain renderer's output; only the sequences the screen writer uses are
// in the output; the cursor is hidden and shown as often.
func TestPrettyScreenMatchesPlain(t *testing.T) {
	t.Parallel()
	for _, f := range prettyFixtures {
		for _, colour := range []bool{true, false} {
			name := f.name
			if !colour {
				name += "/no-colour"
			}
			t.Run(name, func(t *testing.T) {
				f := f
				f.cfg.palette = palette.New(colour)
				d, out, plain := f.render(t)
				rows := vtcheck.Screen(out, 80)
				if err := vtcheck.InOrder(rows, d.assistantTexts()); err != nil {
					t.Errorf("%v\nscreen:\n%s", err, strings.Join(rows, "\n"))
				}
				if err := linesInOrder(rows, d.assistantLines()); err != nil {
					t.Errorf("%v\nscreen:\n%s", err, strings.Join(rows, "\n"))
				}
				for _, name := range d.tools {
					if vtcheck.Count(rows, name) == 0 {
						t.Errorf("tool %s is not on the screen", name)
					}
				}
				if f.cfg.AllowColor {
					return // plain shows the SGR of tool output escaped whatever --allow-color says
				}
				if err := vtcheck.SameTextScreen(rows, plain); err != nil {
					t.Errorf("%v\nscreen:\n%s\nplain:\n%s", err, strings.Join(rows, "\n"), plain)
				}
				if err := vtcheck.Sequences(out); err != nil {
					t.Error(err)
				}
				checkCursor(t, out)
			})
		}
	}
}

// linesInOrder checks that each line occurs on the screen after the one
// before it (white space ignored).
func linesInOrder(rows, lines []string) error {
	unlabelled := make([]string, len(rows))
	for i, r := range rows {
		unlabelled[i] = vtcheck.Unlabel(r)
	}
	all := vtcheck.Squash(strings.Join(unlabelled, "\n"))
	at := 0
	for i, l := range lines {
		j := strings.Index(all[at:], vtcheck.Squash(l))
		if j < 0 {
			return fmt.Errorf("line %d %q is not on the screen after line %d", i, l, i-1)
		}
		at += j + len(vtcheck.Squash(l))
	}
	return nil
}

// checkCursor: every hide is matched by a show, and the output ends with
// the cursor shown and on a fresh row.
func checkCursor(t *testing.T, out []byte) {
	t.Helper()
	hides, shows := bytes.Count(out, []byte(seqHideCursor)), bytes.Count(out, []byte(seqShowCursor))
	if hides != shows || hides > 1 {
		t.Errorf("cursor hidden %d times, shown %d times", hides, shows)
	}
	// The last row written ends in a newline, or rows of the region left
	// over were erased (row by row, the cursor going back up to the first).
	freshRow := func(b []byte) bool {
		b, ok := bytes.CutSuffix(b, []byte(seqShowCursor))
		if !ok {
			return false
		}
		for _, end := range []string{"\n", "\n" + seqEraseBelow, "\n" + seqEraseRow} {
			if bytes.HasSuffix(b, []byte(end)) {
				return true
			}
		}
		return bytes.Contains(b[max(0, len(b)-64):], []byte(seqEraseRow)) && len(b) > 0 && b[len(b)-1] == 'A'
	}
	if hides > 0 && !freshRow(out) {
		t.Errorf("output does not end with a newline and the cursor shown: %q", out[max(0, len(out)-20):])
	}
}
