//go:build !windows

package agentproc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// ownGroup starts cmd in a process group of its own, so that a signal
// passed on, and the clean-up of what the agent leaves running, reach its
// children too (a wrapper's 'server &', an MCP server).
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// signalGroup sends s to the process group p leads (group), else to p.
func signalGroup(p *os.Process, s os.Signal, group bool) error {
	sig, ok := s.(syscall.Signal)
	if !group || !ok {
		return p.Signal(s)
	}
	return syscall.Kill(-p.Pid, sig)
}

// endGroup ends what is left of the process group p led, once p has
// exited: SIGTERM, then SIGKILL for what is still there after a moment.
// A group already gone is not an error.
func endGroup(p *os.Process) {
	if err := syscall.Kill(-p.Pid, syscall.SIGTERM); errors.Is(err, syscall.ESRCH) {
		return
	}
	for range 25 {
		time.Sleep(10 * time.Millisecond)
		if groupGone(p.Pid) {
			return
		}
	}
	// (Members that are zombies nobody reaps stay in the group: SIGKILL
	// does nothing to them and no harm.)
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// fromTerminal reports a signal the terminal sends to its whole
// foreground process group (Ctrl-C, Ctrl-\).
func fromTerminal(s os.Signal) bool { return s == os.Interrupt || s == syscall.SIGQUIT }

// GroupsSupported reports that process groups exist here.
const GroupsSupported = true
