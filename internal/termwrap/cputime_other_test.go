//go:build !unix

package termwrap

import "time"

var start = time.Now()

// cpuTime is the time since the tests began where the process's CPU time
// is not at hand.
func cpuTime() time.Duration { return time.Since(start) }
