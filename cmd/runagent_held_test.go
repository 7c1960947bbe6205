//go:build !windows

package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// heldAgentScript plays an agent that leaves a process behind holding its
// output (a wrapper's 'server &', an MCP server, 'nohup … &'), as
// $HELD_MODE says; the process's pid goes to $FAKE_DIR/child.
const heldAgentScript = `#!/bin/sh
case "$HELD_MODE" in
stdout) cat "$FAKE_CAPTURE"; sleep 60 & echo $! > "$FAKE_DIR/child" ;;
stderr) cat "$FAKE_CAPTURE"; sleep 60 >/dev/null & echo $! > "$FAKE_DIR/child" ;;
stubborn) cat "$FAKE_CAPTURE"; sh -c 'trap "" TERM; while :; do sleep 0.05; done' & echo $! > "$FAKE_DIR/child" ;;
wait)
	trap 'echo "got TERM" >&2; exit 143' TERM
	head -3 "$FAKE_CAPTURE"
	sleep 60 & echo $! > "$FAKE_DIR/child"
	: > "$FAKE_DIR/ready"
	while :; do sleep 0.05; done ;;
esac
`

func newHeldRun(t *testing.T, mode string) *fakeRun {
	t.Helper()
	f := newFakeRun(t, "capture", corpusFile(t, "claude/03-minimal-text-only-v2.1.7.jsonl"))
	f.grace = 300 * time.Millisecond
	if err := writeProgram(filepath.Join(f.dir, "bin", "held"), []byte(strings.Replace(heldAgentScript, "$HELD_MODE", mode, 1))); err != nil {
		t.Fatal(err)
	}
	return f
}

// runWithin runs agentfmt and fails the test when it has not ended after
// limit (the process held the output for 60 s).
func (f *fakeRun) runWithin(t *testing.T, limit time.Duration, args ...string) cliResult {
	t.Helper()
	done := make(chan cliResult, 1)
	go func() { done <- f.run(t, args...) }()
	select {
	case r := <-done:
		return r
	case <-time.After(limit):
		t.Fatalf("agentfmt %s did not end in %v", strings.Join(args, " "), limit)
	}
	return cliResult{}
}

// childPid is the pid of the process the agent left behind.
func (f *fakeRun) childPid(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.dir, "child"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// waitExec waits until pid runs the program name, where /proc tells: a
// shell's child forked for 'sleep 60 &' still has the shell's traps until
// it runs sleep, and a signal that comes then can be lost.
func waitExec(t *testing.T, pid int, name string) {
	t.Helper()
	comm := "/proc/" + strconv.Itoa(pid) + "/comm"
	for range 2000 {
		b, err := os.ReadFile(comm)
		if err != nil || strings.TrimSpace(string(b)) == name {
			return // (no /proc, or it has ended: nothing to wait for)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("process %d never ran %s", pid, name)
}

// gone reports that pid has ended (a zombie nobody reaps has ended too),
// waiting up to 5 s for it (a loaded machine is slow to end a process).
func gone(pid int) bool { return goneWithin(pid, 5*time.Second) }

// goneWithin is gone waiting up to d.
func goneWithin(pid int, d time.Duration) bool {
	for range d / (20 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); err != nil {
			return true
		}
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			// pid (comm) STATE …: the state follows the last ')'.
			if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'Z' {
				return true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// An agent that exits leaving a process holding its stdout or stderr:
// agentfmt reads what the agent wrote, waits Env.DrainGrace for the rest,
// and ends, with the process ended too (the agent led its own process group).
func TestRunChildHoldsOutput(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"stdout", "stderr", "stubborn"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			f := newHeldRun(t, mode)
			in, _ := os.ReadFile(f.capture)
			for _, format := range []string{"plain", "json"} {
				r := f.runWithin(t, 20*time.Second, "-o", format, "run", "held")
				piped := cli{args: []string{"-o", format}, stdin: bytes.NewReader(in)}.run(t)
				if r.code != 0 || r.stdout != piped.stdout {
					t.Errorf("-o %s: exit %d and\n%s\npiped:\n%s", format, r.code, r.stdout, piped.stdout)
				}
				if !strings.Contains(r.stderr, "held exited, but a process it started still held its output open 300ms later: stopped reading and ended it") {
					t.Errorf("-o %s: stderr %q", format, r.stderr)
				}
				if pid := f.childPid(t); !gone(pid) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("-o %s: the process the agent left (%d) is still running", format, pid)
				}
			}
		})
	}
}

// When agentfmt has the terminal, the agent shares its process group (a
// Ctrl-C there reaches them all): a process left holding the output is
// not agentfmt's to end, but it is not waited for either.
func TestRunChildHoldsOutputForeground(t *testing.T) {
	t.Parallel()
	f := newHeldRun(t, "stdout")
	f.foreground = true
	r := f.runWithin(t, 20*time.Second, "-o", "plain", "run", "held")
	pid := f.childPid(t)
	defer syscall.Kill(pid, syscall.SIGKILL)
	if r.code != 0 || !strings.Contains(r.stdout, "done") {
		t.Errorf("exit %d:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stderr, "stopped reading (it is still running)") {
		t.Errorf("stderr %q", r.stderr)
	}
	// (Half a second: a process agentfmt had signalled before it returned
	// would be ended by then; gone's 5 s is for one that must end.)
	if goneWithin(pid, 500*time.Millisecond) {
		t.Errorf("the process of agentfmt's own group was ended")
	}
}

// SIGTERM while the agent runs and a process it started holds its stdout:
// the signal reaches both (the agent's process group), and agentfmt exits
// 143 without waiting for the process.
func TestRunTermWithChildHoldingOutput(t *testing.T) {
	t.Parallel()
	f := newHeldRun(t, "wait")
	// A grace far longer than a signalled child takes to end, even on a
	// loaded machine: the output ends at once when the child got the
	// signal, and only after the grace when it did not.
	f.grace = 10 * time.Second
	f.signals = make(chan os.Signal, 1)
	done := make(chan cliResult, 1)
	start := time.Now()
	go func() { done <- f.run(t, "-o", "plain", "run", "held") }()
	waitFile(t, filepath.Join(f.dir, "ready"))
	waitExec(t, f.childPid(t), "sleep")
	f.signals <- syscall.SIGTERM
	var r cliResult
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("agentfmt did not end")
	}
	if r.code != ExitTerminated || !strings.Contains(r.stdout, "got TERM") {
		t.Errorf("exit %d, want 143:\n%s", r.code, r.stdout)
	}
	if pid := f.childPid(t); !gone(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the process the agent left (%d) did not get the signal", pid)
	}
	// The child got the signal with the agent: the output ended at once,
	// with no grace waited.
	if strings.Contains(r.stderr, "held its output") {
		t.Errorf("waited for the child: %q (%v)", r.stderr, time.Since(start))
	}
}
