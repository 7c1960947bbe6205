//go:build unix

package termwrap

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used: what a test that times
// work measures, so that a loaded machine (other processes taking the
// cores) does not count.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
