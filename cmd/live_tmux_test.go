//go:build unix

package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// liveTmux is a paced replay through a real terminal: the test writes a
// log line by line into `agentfmt -o pretty` running in a tmux pane and
// reads the pane after each line. settle is how long the test waits for
// the screen to show a line's running calls before it counts a miss; poll
// is how often it reads the pane meanwhile.
type liveTmux struct {
	width, height int
	settle, poll  time.Duration
}

// callsShown reports whether the pane shows every call of want (name →
// how many run) by its running line, each once, or counts it in a
// "… N more running" row.
func callsShown(pane string, want map[string]int) bool {
	missing, twice := vtcheck.CallsShown(strings.Split(pane, "\n"), want)
	return missing == 0 && twice == ""
}

// run replays data and returns how many lines left calls running, and
// after how many of those the pane never showed them all.
func (c liveTmux) run(t *testing.T, bin string, data []byte) (running, missed int, first string) {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "in")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no fifo: %v", err)
	}
	script := fmt.Sprintf(`%q -o pretty < %q; echo DONE-MARK; sleep 600`, bin, fifo)
	tm := tmuxPane(t, tmux, c.width, c.height, script)
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	pane := func() string { return tm("capture-pane", "-t", "t", "-p") }

	// The same log through a session in the test says which calls run.
	sess := streaming.NewSession(streaming.HandlerFunc(func(*streaming.Event) error { return nil }), streaming.Options{})
	dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{}, sess)
	if err != nil {
		t.Fatal(err)
	}
	in := input.NewReader(bytes.NewReader(data), 0)
	for n := 1; ; n++ {
		l, err := in.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := dec.Decode(l); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(append(append([]byte(nil), l.Bytes...), '\n')); err != nil {
			t.Fatal(err)
		}
		open := sess.Calls()
		if len(open) == 0 {
			continue
		}
		want := map[string]int{}
		for _, call := range open {
			want[call.Name]++
		}
		running++
		p := pane()
		for deadline := time.Now().Add(c.settle); !callsShown(p, want) && time.Now().Before(deadline); p = pane() {
			time.Sleep(c.poll)
		}
		if !callsShown(p, want) {
			missed++
			if first == "" {
				first = fmt.Sprintf("after line %d, running %v:\n%s", n, want, p)
			}
		}
	}
	w.Close()
	deadline := time.Now().Add(c.settle)
	for !strings.Contains(pane(), "DONE-MARK") && time.Now().Before(deadline) {
		time.Sleep(c.poll)
	}
	return running, missed, first
}

// TestLiveTmuxShowsRunningCalls is TestPrettyLiveShowsRunningCalls
// (render) through a real terminal: the demo's session and real captures
// of Claude (with and without partial messages), Codex and Gemini, fed a
// line at a time to agentfmt in a tmux pane 80×24, the pane read after
// each line: every running call has its running line on the screen, once.
func TestLiveTmuxShowsRunningCalls(t *testing.T) {
	testenv.Slow(t)
	bin := hostileBinary(t)
	logs := []string{filepath.Join("demo", "session.jsonl")}
	for _, name := range []string{
		"claude/01-subagents-parallel-task-no-partial.jsonl",
		"claude/10-roma-partial-thinking-input-json-bash-task-2.1.220.jsonl",
		"codex/14-takopi-handwritten-all-item-types.jsonl",
		"gemini/05-agentcmd-v0.11-read-replace-read.jsonl",
	} {
		path := filepath.Join("..", "..", "shared", "corpus", name)
		if _, err := os.Stat(path); err == nil {
			logs = append(logs, path)
		}
	}
	c := liveTmux{width: 80, height: 24, settle: 5 * time.Second, poll: 40 * time.Millisecond}
	for _, name := range logs {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			running, missed, first := c.run(t, bin, data)
			t.Logf("%d lines with calls running; the screen missed some after %d", running, missed)
			if missed*20 > running {
				t.Errorf("a running call was off the screen after %d of %d lines; the first:\n%s", missed, running, first)
			}
		})
	}
}
