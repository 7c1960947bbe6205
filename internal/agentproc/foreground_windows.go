package agentproc

// Foreground is false: Windows has no process groups to share a Ctrl-C.
func Foreground() bool { return false }
