// Package testenv says which of agentfmt's tests run where. The everyday
// `go test ./...` stays near half a minute on 2 cores; the slow end-to-end
// checks (headless Chromium on every capture, tmux, the terminal emulator
// on long streams, whole-process memory, tens of MB rendered) run when
// AGENTFMT_SLOW=1, which .ci/run sets, so CI still runs everything. A slow
// test keeps a cheap representative in the everyday run where one exists
// (one page in the browser, one resize in tmux): Cases picks it.
package testenv

import (
	"os"
	"testing"
)

// SlowVar is the environment variable that turns the slow tests on.
const SlowVar = "AGENTFMT_SLOW"

// SlowEnabled reports whether the slow tests run.
func SlowEnabled() bool { return os.Getenv(SlowVar) == "1" }

// Slow skips t unless the slow tests run. -short skips them too.
func Slow(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("a slow test: skipped with -short")
	}
	if !SlowEnabled() {
		t.Skipf("a slow test: runs with %s=1 (as .ci/run does)", SlowVar)
	}
}

// Cases returns all of cases when the slow tests run, else the first n:
// the everyday run keeps a representative of a slow table.
func Cases[T any](cases []T, n int) []T {
	if SlowEnabled() || len(cases) <= n {
		return cases
	}
	return cases[:n]
}

// RaceSample returns every n-th of cases, the first among them, under the
// race detector in the everyday run, else all: for a table whose cases
// all drive the same concurrent code, which the run without the detector
// and the slow run check whole.
func RaceSample[T any](cases []T, n int) []T {
	if !Race || SlowEnabled() || n <= 1 {
		return cases
	}
	var some []T
	for i := 0; i < len(cases); i += n {
		some = append(some, cases[i])
	}
	return some
}
