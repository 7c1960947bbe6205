//go:build unix

package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// TestRunHangupRealProcess runs the agentfmt binary on a fake agent that
// leads a process group of its own (no terminal: a CI job, a script, an
// ssh session) and sends agentfmt SIGHUP (the terminal closed, the
// connection dropped), SIGQUIT or SIGTERM: the agent gets the signal,
// agentfmt waits for it and exits 128+N, with no goroutine dump. Left to
// Go's defaults, agentfmt died at once of SIGHUP (129, the agent running
// on unattended) and dumped its goroutines on SIGQUIT (exit 2). The
// everyday run takes SIGHUP; AGENTFMT_SLOW=1 all.
func TestRunHangupRealProcess(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary (skipped with -short)")
	}
	bin := hostileBinary(t)
	capture, _ := filepath.Abs(filepath.Join("..", "testdata", "claude", "01-partial-text-thinking-tool-input-json.jsonl"))
	for _, c := range testenv.Cases([]struct {
		sig  syscall.Signal
		name string
		want int
	}{
		{syscall.SIGHUP, "HUP", ExitHangup},
		{syscall.SIGQUIT, "QUIT", ExitQuit},
		{syscall.SIGTERM, "TERM", ExitTerminated},
	}, 1) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeRun(t, "wait", capture)
			var out, errb bytes.Buffer
			cmd := exec.Command(bin, "-o", "plain", "run", "claude", "-p", "x")
			cmd.Env = append(os.Environ(), "PATH="+filepath.Join(f.dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
				"FAKE_DIR="+f.dir, "FAKE_MODE=wait", "FAKE_CAPTURE="+capture)
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			waitFile(t, filepath.Join(f.dir, "ready"))
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("agentfmt did not end after SIG%s", c.name)
			}
			if got := cmd.ProcessState.ExitCode(); got != c.want {
				t.Errorf("exit %d, want %d (%v)\nstderr:\n%s", got, c.want, cmd.ProcessState, errb.String())
			}
			if _, err := os.Stat(filepath.Join(f.dir, "got-"+c.name)); err != nil && c.name != "TERM" {
				t.Errorf("the agent never got SIG%s: it would run on unattended", c.name)
			}
			if !strings.Contains(out.String(), "got "+c.name) {
				t.Errorf("what the agent said on its way out is not shown:\n%s", out.String())
			}
			if !strings.Contains(out.String(), "interrupted") {
				t.Errorf("no interrupted footer:\n%s", out.String())
			}
			if strings.Contains(errb.String(), "goroutine ") {
				t.Errorf("a goroutine dump on stderr:\n%.400s", errb.String())
			}
		})
	}
}

// TestFollowHangupRestoresCursor follows, in a real terminal (a tmux
// pane), a log whose tool call is still running, so the live region is
// drawn and the cursor hidden, and hangs agentfmt up: it ends with 129,
// the live block closed (following stopped) and the cursor shown again.
func TestFollowHangupRestoresCursor(t *testing.T) {
	testenv.Slow(t)
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	bin := hostileBinary(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "run.jsonl")
	s := (&cs{}).init().text("m1", "Building it.").
		toolUse("m1", "t1", "Bash", map[string]any{"command": "make everything"})
	if err := os.WriteFile(log, []byte(s.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pid := filepath.Join(dir, "pid")
	script := fmt.Sprintf(`sh -c 'echo $$ > %q; exec %q -o pretty --follow %q'; echo EXIT=$?; sleep 600`, pid, bin, log)
	run := tmuxPane(t, tmux, 90, 30, script)
	screen := func() string { return run("capture-pane", "-t", "t", "-p") }
	cursor := func() string { return strings.TrimSpace(run("display-message", "-p", "-t", "t", "#{cursor_flag}")) }
	waitFor := func(what string, ok func() bool) {
		deadline := time.Now().Add(60 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s never happened; the pane:\n%s", what, screen())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitFor("the running tool on screen with the cursor hidden", func() bool {
		return strings.Contains(screen(), "make everything") && cursor() == "0"
	})
	b, err := os.ReadFile(pid)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if _, err := fmt.Sscan(string(b), &n); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(n, syscall.SIGHUP); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Fatal(err)
	}
	waitFor("agentfmt's end", func() bool { return strings.Contains(screen(), "EXIT=") })
	got := screen()
	if !strings.Contains(got, "EXIT=129") {
		t.Errorf("exit status not 129:\n%s", got)
	}
	if !strings.Contains(got, "following stopped") {
		t.Errorf("the live block is not closed (following stopped):\n%s", got)
	}
	if c := cursor(); c != "1" {
		t.Errorf("the cursor is left hidden (cursor_flag %s):\n%s", c, got)
	}
}
