//go:build unix

package cmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// TestFollowSeveralTmux runs `agentfmt --follow a.jsonl b.jsonl` in a real
// terminal (a tmux pane, 90×30) while both logs are written line by line,
// b faster than a. While a still runs, the screen shows b's whole run and
// both streams' headings (b done, a running); at the end the pane's
// history holds each run under separators naming its stream and a
// summary line per stream, and agentfmt has ended by itself.
func TestFollowSeveralTmux(t *testing.T) {
	t.Parallel()
	testenv.Slow(t)
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	bin := hostileBinary(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for name, lines := range map[string][]string{a + ".src": runLog("aaaa", 4, true), b + ".src": runLog("bbbb", 4, false)} {
		os.WriteFile(name, []byte(strings.Join(lines, "")), 0o644)
	}
	hold := filepath.Join(dir, "hold")
	os.WriteFile(hold, nil, 0o644)
	// a waits before its last line (its result) until hold is removed.
	writer := func(src, dst, pause string, wait bool) string {
		w := ""
		if wait {
			w = fmt.Sprintf(`[ "$n" = "$last" ] && while [ -e %q ]; do sleep 0.05; done; `, hold)
		}
		return fmt.Sprintf(`(last=$(wc -l < %q); n=0; while IFS= read -r l; do n=$((n+1)); %sprintf '%%s\n' "$l" >> %q; sleep %s; done < %q) &`,
			src, w, dst, pause, src)
	}
	script := writer(a+".src", a, "0.1", true) + writer(b+".src", b, "0.02", false) +
		fmt.Sprintf(` %q --follow %q %q; echo EXIT=$?; sleep 600`, bin, a, b)
	run := tmuxPane(t, tmux, 90, 30, script)
	screen := func() string { return run("capture-pane", "-t", "t", "-p") }
	history := func() string { return run("capture-pane", "-t", "t", "-p", "-J", "-S", "-") }
	waitFor := func(what string, cond func(string) bool, get func() string) string {
		deadline := time.Now().Add(60 * time.Second)
		for {
			s := get()
			if cond(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never appeared; the pane:\n%s", what, s)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	mid := waitFor("b done with a running", func(s string) bool {
		return strings.Contains(s, "✗ b · claude · work · bbbb · failed") && strings.Contains(s, "a · claude · work · aaaa · ")
	}, screen)
	if strings.Contains(mid, "✓ a ·") || strings.Contains(mid, "EXIT=") {
		t.Errorf("a shown done, or agentfmt ended, while a still runs:\n%s", mid)
	}
	if h := history(); !strings.Contains(h, "Step 4 of bbbb.") {
		t.Errorf("b's whole run is not on screen while a runs:\n%s", h)
	}
	os.Remove(hold)
	end := waitFor("the end", func(s string) bool { return strings.Contains(s, "EXIT=") }, history)
	if !strings.Contains(end, "EXIT=1") {
		t.Errorf("exit status (want 1, b failed):\n%s", end)
	}
	rows := strings.Split(end, "\n")
	owner, whose := "", map[string]string{}
	for _, r := range rows {
		switch {
		case strings.HasPrefix(r, "── a"):
			owner = "a"
		case strings.HasPrefix(r, "── b"):
			owner = "b"
		case strings.HasPrefix(r, "✓ a ·"), strings.HasPrefix(r, "✗ b ·"):
			owner = ""
		default:
			whose[owner] += r + "\n"
		}
	}
	for _, s := range []string{"a", "b"} {
		id := strings.Repeat(s, 4)
		for i := 1; i <= 4; i++ {
			if n := strings.Count(whose[s], fmt.Sprintf("Step %d of %s.", i, id)); n != 1 {
				t.Errorf("step %d of %s shown %d times under its separators; the history:\n%s", i, id, n, end)
			}
		}
	}
	if !strings.Contains(end, "✓ a · claude · work · aaaa · done") || !strings.Contains(end, "✗ b · claude · work · bbbb · failed") {
		t.Errorf("no summary lines:\n%s", end)
	}
}
