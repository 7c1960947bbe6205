//go:build linux

package cmd

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// agentfmtProcess starts agentfmt as a child process.
func agentfmtProcess(t *testing.T, args ...string) (*exec.Cmd, io.Reader) {
	t.Helper()
	return agentfmtProcessIn(t, "", nil, args...)
}

// agentfmtProcessIn starts agentfmt as a child process in the folder dir
// (the test's own when empty), with env added to the test's environment.
func agentfmtProcessIn(t *testing.T, dir string, env []string, args ...string) (*exec.Cmd, io.Reader) {
	t.Helper()
	c := exec.Command(hostileBinary(t), args...)
	c.Env = append(os.Environ(), env...)
	c.Dir = dir
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	return c, out
}

// cpuOf is the CPU time a process has used so far (/proc/PID/stat: user
// and system time, in clock ticks of 1/100 s).
func cpuOf(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// TestIdleFollowCPU: agentfmt following three logs whose agents are
// quiet (their runs under way, a tool call running) uses next to no CPU:
// at most 0.1 s in 5 s, in plain and in pretty (whose headings count the
// seconds and turn a spinner).
func TestIdleFollowCPU(t *testing.T) {
	testenv.Slow(t)
	dir := t.TempDir()
	var files []string
	for _, name := range []string{"a", "b", "c"} {
		lines := runLog(name+name+name+name, 1, true)
		p := filepath.Join(dir, name+".jsonl")
		os.WriteFile(p, []byte(strings.Join(lines[:3], "")), 0o644) // start, text, a call running
		files = append(files, p)
	}
	for _, format := range []string{"plain", "pretty"} {
		t.Run(format, func(t *testing.T) {
			args := append([]string{"--follow", "-o", format, "--width", "100"}, files...)
			c, out := agentfmtProcess(t, args...)
			// Wait until all three are shown, then measure 5 s of waiting.
			seen := make(chan struct{})
			go func() {
				r := bufio.NewReader(out)
				var b strings.Builder
				signalled := false
				for {
					chunk, err := r.ReadString('\n')
					b.WriteString(chunk)
					if !signalled && strings.Count(b.String(), "make ") >= 3 {
						signalled = true
						close(seen)
					}
					if err != nil {
						return
					}
				}
			}()
			select {
			case <-seen:
			case <-time.After(30 * time.Second):
				t.Fatal("the three logs were not shown")
			}
			before := cpuOf(t, c.Process.Pid)
			time.Sleep(5 * time.Second)
			used := cpuOf(t, c.Process.Pid) - before
			c.Process.Signal(syscall.SIGINT)
			err := c.Wait()
			var ee *exec.ExitError
			if err == nil || !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupted {
				t.Errorf("exit: %v, want 130", err)
			}
			t.Logf("-o %s: %v CPU in 5 s following three idle logs", format, used)
			if used > 100*time.Millisecond {
				t.Errorf("-o %s: %v CPU in 5 s of idle following (at most 0.1 s)", format, used)
			}
		})
	}
}
