package cmd

import (
	"fmt"
	"os"
	"os/exec"
	"sync/atomic"
	"testing"
)

// tmuxServers numbers the tmux servers this test process starts, so that
// tests in parallel never share one.
var tmuxServers atomic.Int64

// tmuxPane starts a tmux server of the test's own (its own socket) with one
// session, "t", width×height cells, running script in sh with the CI and
// colour variables that would change agentfmt's output taken away. It
// returns the function that runs a tmux command on that server; the
// server is ended when the test ends.
func tmuxPane(t *testing.T, tmux string, width, height int, script string) func(args ...string) string {
	t.Helper()
	sock := fmt.Sprintf("agentfmt-test-%d-%d", os.Getpid(), tmuxServers.Add(1))
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-L", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("new-session", "-d", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "-s", "t",
		"env", "-u", "CI", "-u", "GITHUB_ACTIONS", "-u", "GITLAB_CI", "-u", "NO_COLOR", "TERM=tmux-256color", "sh", "-c", script)
	t.Cleanup(func() { _ = exec.Command(tmux, "-L", sock, "kill-server").Run() })
	return run
}
