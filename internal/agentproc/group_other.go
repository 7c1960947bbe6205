//go:build !linux && !windows

package agentproc

import (
	"errors"
	"syscall"
)

// groupGone reports that no process of the group pgid is left.
func groupGone(pgid int) bool { return errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) }
