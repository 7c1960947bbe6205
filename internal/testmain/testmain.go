// Package testmain is the TestMain of every agentfmt test package:
//
//	func TestMain(m *testing.M) { testmain.Run(m) }
//
// A program built with the race detector sleeps a second as it exits
// (GORACE's atexit_sleep_ms), so that threads still running can report a
// race. A test binary has nothing left running when its tests are done,
// and testing has already failed the run on any race it saw, in a test or
// outside one; the pause is then only waiting, once per test binary and
// once per agentfmt process a test starts. Run leaves it out of both.
package testmain

import (
	"os"
	"testing"
)

// Run runs m's tests and exits with their result.
func Run(m *testing.M) { Exit(m.Run()) }

// Exit ends the test process with code, as os.Exit does, without the race
// detector's pause at exit: for a TestMain that has work of its own to do
// after m.Run.
func Exit(code int) {
	if race && code == 0 {
		exitNow(0)
	}
	os.Exit(code)
}

func init() {
	// Processes the tests start (agentfmt itself, run from the test
	// binary) inherit the setting; a race they find still makes their
	// exit status 66.
	if race && os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
}
