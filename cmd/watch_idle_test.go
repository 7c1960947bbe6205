//go:build linux

package cmd

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// idleSessions is how many idle sessions TestWatchIdleCPU watches (a
// comma-separated list; docs/performance.md gives the figures):
//
//	AGENTFMT_SLOW=1 go test ./cmd -run TestWatchIdleCPU -v -idle-sessions 10,1000,2000
var idleSessions = flag.String("idle-sessions", "10,1000", "TestWatchIdleCPU: the numbers of idle sessions watched")

// TestWatchIdleCPU: watch following many sessions whose agents are quiet
// (each turn ended, waiting for a prompt) uses next to no CPU — at most
// 0.25 s in 5 s, whatever their number — and after half of the session
// files are deleted it lets them go: their descriptors are closed, and
// the rest stay as cheap.
func TestWatchIdleCPU(t *testing.T) {
	testenv.Slow(t)
	for _, s := range strings.Split(*idleSessions, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 2 {
			t.Fatalf("-idle-sessions %q", *idleSessions)
		}
		t.Run(strconv.Itoa(n), func(t *testing.T) { idleWatch(t, n) })
	}
}

func idleWatch(t *testing.T, n int) {
	h := newFakeHome(t)
	var paths []string
	for i := range n {
		id := fmt.Sprintf("s%05d-idle", i)
		p := h.putAt(".claude/projects/"+projDir(h.proj)+"/"+id+".jsonl", transcript(h.proj, id, "prompt "+id), time.Minute)
		paths = append(paths, p)
	}
	c, out := agentfmtProcessIn(t, h.proj, []string{"HOME=" + h.home}, "watch", "-o", "plain")
	var shown atomic.Int64
	go func() {
		r := bufio.NewReader(out)
		for {
			l, err := r.ReadString('\n')
			if strings.Contains(l, "Looking.") {
				shown.Add(1)
			}
			if err != nil {
				return
			}
		}
	}()
	deadline := time.Now().Add(2 * time.Minute)
	for shown.Load() < int64(n) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d sessions shown", shown.Load(), n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	measure := func(what string) {
		time.Sleep(time.Second) // what showing them left to do
		before := cpuOf(t, c.Process.Pid)
		time.Sleep(5 * time.Second)
		used := cpuOf(t, c.Process.Pid) - before
		t.Logf("%d sessions, %s: %v CPU in 5 s (%.1f %%), %d descriptors", n, what, used,
			float64(used)/float64(5*time.Second)*100, fds(t, c.Process.Pid))
		if used > 250*time.Millisecond {
			t.Errorf("%d sessions, %s: %v CPU in 5 s of idle watching (at most 0.25 s)", n, what, used)
		}
	}
	measure("idle")
	before := fds(t, c.Process.Pid)
	for _, p := range paths[:n/2] {
		os.Remove(p)
	}
	deadline = time.Now().Add(time.Minute)
	for fds(t, c.Process.Pid) > before-n/2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d deleted session files still open", fds(t, c.Process.Pid)-(before-n/2), n/2)
		}
		time.Sleep(50 * time.Millisecond)
	}
	measure("half deleted")
	c.Process.Signal(syscall.SIGINT)
	if err := c.Wait(); err == nil || c.ProcessState.ExitCode() != ExitInterrupted {
		t.Errorf("exit %v, want 130", err)
	}
}

// fds counts the open descriptors of a process.
func fds(t *testing.T, pid int) int {
	t.Helper()
	es, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}
