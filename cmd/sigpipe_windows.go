package cmd

// catchSIGPIPE: Windows has no SIGPIPE; a write to a closed pipe fails.
func catchSIGPIPE() {}
