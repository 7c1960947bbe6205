package cmd

// foreground is false: Windows has no process groups to share a Ctrl-C.
func foreground() bool { return false }
