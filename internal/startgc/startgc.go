// Package startgc sets the collector's GOGC as the program starts, before
// its libraries' package initialisers run.
//
// Those initialisers (chroma's lexer registry above all) allocate a few
// megabytes, most of it garbage once they are done, and the runtime's
// first collection, due at a heap of 4 MB, fell among them: a collection,
// with the page faults of its first pass over the binary's tables, in
// every run however short (`agentfmt --version`, a line or two). At
// Percent it is due at 8 MB, after start-up. cmd's tuneGC keeps the same
// value for a run; GOGC in the environment wins (docs/performance.md,
// Traces).
//
// runtime/debug cannot be used for this: packages are initialised in the
// order of their import paths as their imports allow, and runtime/debug
// comes after the libraries. The runtime's own setGCPercent, which
// runtime/debug.SetGCPercent calls, is linked instead: this package
// imports nothing that comes late. cmd's TestStartCollectsNothing checks
// that a short run does not collect.
package startgc

import (
	"syscall"
	_ "unsafe" // for go:linkname
)

// Percent is agentfmt's GOGC, from its start.
const Percent = 200

// setGCPercent is runtime/debug.SetGCPercent without its package, which
// is initialised too late.
//
//go:linkname setGCPercent runtime/debug.setGCPercent
func setGCPercent(int32) int32

func init() {
	if _, ok := syscall.Getenv("GOGC"); !ok {
		setGCPercent(Percent)
	}
}
