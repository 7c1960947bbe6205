package sanitize

// asciiRun is the length of the run of printable ASCII, tabs and newlines
// at the start of s. (ascii_amd64.s)
//
//go:noescape
func asciiRun(s string) int
