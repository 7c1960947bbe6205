package cmd

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/vtcheck"
)

// TestFollowSeveralNoticesAboveLive: --follow A B on a terminal (stdout
// and stderr the same screen), B not there yet: what agentfmt says of B
// (it does not exist yet, then it has appeared) is on lines of its own in
// the scrollback, never inside a lane's heading, and no row of the live
// region is left behind in the scrollback.
func TestFollowSeveralNoticesAboveLive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	la := runLog("aaaa", 1, true)
	os.WriteFile(a, []byte(strings.Join(la[:3], "")), 0o644) // a call running
	screen := &safeBuffer{}
	fr := startRun(func(env *Env) {
		env.Stdout, env.Stderr = screen, screen
		env.IsTerminal = func(io.Writer) bool { return true }
		env.TermSize = func(io.Writer) (int, int, bool) { return 100, 30, true }
		env.Tick = nil
	}, "--follow", "-o", "pretty", a, b)
	waitFor(t, "b waited for", func() bool { return strings.Contains(screen.String(), "does not exist yet") })
	os.WriteFile(b, []byte(strings.Join(runLog("bbbb", 1, true), "")), 0o644)
	waitFor(t, "b shown", func() bool { return strings.Contains(screen.String(), "has appeared") })
	appendTo(t, a, strings.Join(la[3:], ""))
	select {
	case code := <-fr.done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(20 * time.Second):
		fr.interrupt(t, "--follow")
	}
	rows := vtcheck.Screen([]byte(screen.String()), 100)
	var notices int
	for _, r := range rows {
		if i := strings.Index(r, "agentfmt:"); i >= 0 {
			notices++
			if strings.TrimSpace(r[:i]) != "" {
				t.Errorf("a notice inside another line: %q", r)
			}
		}
		if strings.Contains(r, "· idle") || strings.Contains(r, "· running") || strings.Contains(r, "waiting on") {
			t.Errorf("a live row left in the scrollback: %q", r)
		}
	}
	if notices < 2 {
		t.Errorf("%d notices on lines of their own, want 2:\n%s", notices, strings.Join(rows, "\n"))
	}
}
