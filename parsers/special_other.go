//go:build !amd64

package parsers

// stringRun is the length of the run of JSON string text at the start of
// b: the index of the first '"', control character or backslash that
// does not start a two-byte escape, or len(b).
func stringRun(b []byte) int { return stringRunGo(b) }
