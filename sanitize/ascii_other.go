//go:build !amd64

package sanitize

// asciiRun is the length of the run of printable ASCII, tabs and newlines
// at the start of s.
func asciiRun(s string) int { return asciiRunGo(s) }
