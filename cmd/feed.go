package cmd

import (
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/agentfmt/agentfmt/internal/startgc"
)

// tuneGC sets the collector for a run and returns what
// restores it. A run keeps a small heap (a megabyte or two whatever the
// stream's length) and allocates little more than it reads of long texts,
// so the default GOGC=100 collects often for little. Every format collects
// at GOGC=200: less CPU in every format for a few MiB more at the peak
// (docs/performance.md, the GC tuning row).
//
// A soft memory limit (gcSoftLimit) is for when the live heap is large
// (one answer of tens of megabytes, twice which would be the heap's
// goal): the collector then runs as the heap nears the limit, and, when
// more than that is live (a line of tens of megabytes), more often (the
// runtime bounds its share of the CPU). GOGC and GOMEMLIMIT in the
// environment win.
func tuneGC() (restore func()) {
	gc, limit := -2, int64(-2)
	if os.Getenv("GOGC") == "" {
		gc = debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limit = debug.SetMemoryLimit(gcSoftLimit)
	}
	return func() {
		if gc != -2 {
			debug.SetGCPercent(gc)
		}
		if limit != -2 {
			debug.SetMemoryLimit(limit)
		}
	}
}

// gcPercent is the GOGC of a run, as from the program's start (startgc),
// gcSoftLimit the memory the collector aims to stay under (see tuneGC).
const gcPercent = startgc.Percent

const gcSoftLimit = 64 << 20

// teeWriter copies input to --tee; a write error is reported once and
// rendering goes on; the run ends with exit 74 (tee.go, finishTee).
type teeWriter struct {
	w      io.Writer
	stderr io.Writer
	name   string
	mu     sync.Mutex
	failed bool
	// copied is how many bytes the file holds; err is the write error
	// that cut the copy short.
	copied int64
	err    error
}

func (t *teeWriter) write(b []byte) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.failed {
		return
	}
	n, err := t.w.Write(b)
	t.copied += int64(n)
	if err != nil {
		t.failed, t.err = true, err
		warnf(t.stderr, "--tee %s: %v (rendering goes on)", t.name, err)
	}
}

// lockedWriter serialises writes to stderr from the tee goroutine and the
// main loop.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
