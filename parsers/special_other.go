//go:build !amd64

package parsers

// stringRun is the length of the run of JSON string text at the start of
// b: the index of the first '"', control character or backslash that
// does not start a two-byte escape, or len(b).
func stringRun(b []byte) int { return stringRunGo(b) }

// unescapeRun copies src to dst, decoding two-byte escapes, up to the end
// of src or a backslash that starts anything else (\u, or an error): n
// bytes written, m read. dst must have room for len(src) bytes.
func unescapeRun(dst []byte, src string) (n, m int) { return unescapeRunGo(dst, src) }
