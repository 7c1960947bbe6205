// Package testenv says which of agentfmt's tests run where. The everyday
// `go test ./...` stays near half a minute on 2 cores; the slow end-to-end
// checks (headless Chromium, tmux, the terminal emulator on long streams,
// whole-process memory) run when AGENTFMT_SLOW=1, which .ci/run sets, so
// CI still runs everything.
package testenv

import (
	"os"
	"testing"
)

// SlowVar is the environment variable that turns the slow tests on.
const SlowVar = "AGENTFMT_SLOW"

// SlowEnabled reports whether the slow tests run.
func SlowEnabled() bool { return os.Getenv(SlowVar) == "1" }

// Slow skips t unless the slow tests run.
func Slow(t testing.TB) {
	t.Helper()
	if !SlowEnabled() {
		t.Skipf("a slow test: runs with %s=1 (as .ci/run does)", SlowVar)
	}
}
