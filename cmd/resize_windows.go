package cmd

import "os"

// resizeSignals is nil on Windows, which has no SIGWINCH: the live
// renderer keeps the console width it started with.
func resizeSignals() <-chan os.Signal { return nil }
