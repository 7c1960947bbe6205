package agentproc

import (
	"os"
	"os/exec"
)

// ownGroup does nothing: Windows has no process groups to signal.
func ownGroup(*exec.Cmd) {}

// signalGroup sends s to p.
func signalGroup(p *os.Process, s os.Signal, _ bool) error { return p.Signal(s) }

// endGroup does nothing: there is no group to end.
func endGroup(*os.Process) {}

// GroupsSupported reports that process groups exist here: not on Windows.
const GroupsSupported = false

// fromTerminal reports a signal the console sends to every process
// attached to it (Ctrl-C).
func fromTerminal(s os.Signal) bool { return s == os.Interrupt }
