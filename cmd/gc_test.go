package cmd

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: a run collects at GOGC=200 under a 64 MiB soft limit and
// gives the collector back as it was; GOGC and GOMEMLIMIT in the
// environment win over both.
func TestTuneGC(t *testing.T) {
	current := func() (int, int64) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1) // (a negative limit only reads it)
	}
	p0, l0 := current()
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	restore := tuneGC()
	if p, l := current(); p != 200 || l != 64<<20 {
		t.Errorf("during a run: GOGC %d, limit %d", p, l)
	}
	restore()
	if p, l := current(); p != p0 || l != l0 {
		t.Errorf("after it: GOGC %d, limit %d, want %d and %d", p, l, p0, l0)
	}
	t.Setenv("GOGC", "100")
	t.Setenv("GOMEMLIMIT", "1GiB")
	restore = tuneGC()
	if p, l := current(); p != p0 || l != l0 {
		t.Errorf("with GOGC and GOMEMLIMIT set: GOGC %d, limit %d, want %d and %d as they were", p, l, p0, l0)
	}
	restore()
}
