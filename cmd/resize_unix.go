//go:build !windows

package cmd

import (
	"os"
	"os/signal"
	"syscall"
)

// resizeSignals delivers SIGWINCH, the terminal's size changes.
func resizeSignals() <-chan os.Signal {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	return winch
}
