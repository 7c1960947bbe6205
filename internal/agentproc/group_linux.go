package agentproc

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// groupGone reports that no process of the group pgid runs any more:
// none is left, or those left are zombies, which ended but wait for a
// parent to reap them (where the container's first process reaps no
// orphans, they stay for good, and signals do nothing to them).
func groupGone(pgid int) bool {
	if errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) {
		return true
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, d := range procs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue // (ended meanwhile)
		}
		// pid (comm) state ppid pgrp …: the fields after the last ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) < 3 || string(f[2]) != strconv.Itoa(pgid) {
			continue
		}
		if f[0][0] != 'Z' && f[0][0] != 'X' {
			return false
		}
	}
	return true
}
