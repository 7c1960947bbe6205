//go:build !windows

package cmd

import (
	"os"
	"os/signal"
	"syscall"
)

// catchSIGPIPE makes a write to a closed stdout fail with EPIPE instead of
// killing agentfmt (Go's default for stdout and stderr): agentfmt then
// exits 141 quietly, and with --tee first reads its input to the end. The
// signal is caught, not ignored, so a child ('agentfmt run') gets the
// default disposition back when it starts.
func catchSIGPIPE() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
}
