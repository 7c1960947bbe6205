//go:build !windows

package agentproc

import (
	"os"

	"golang.org/x/sys/unix"
)

// Foreground reports that this process's group is the foreground process
// group of the terminal on its stdin, stdout or stderr: a Ctrl-C there
// goes to the whole group, children included.
func Foreground() bool {
	for _, f := range []*os.File{os.Stdin, os.Stdout, os.Stderr} {
		rc, err := f.SyscallConn() // (Fd would switch the file to blocking mode)
		if err != nil {
			continue
		}
		pg, gerr := 0, error(nil)
		if err := rc.Control(func(fd uintptr) { pg, gerr = unix.IoctlGetInt(int(fd), unix.TIOCGPGRP) }); err != nil || gerr != nil {
			continue
		}
		return pg == unix.Getpgrp()
	}
	return false
}
