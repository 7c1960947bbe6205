//go:build !amd64 || purego

package simd

// StringRun is the length of the run of JSON string text at the start of
// b: the index of the first '"', control character (< 0x20) or backslash
// that does not start a two-byte escape (\" \\ \/ \b \f \n \r \t), or
// len(b). Two-byte escapes are part of the run.
func StringRun(b []byte) int { return StringRunGo(b) }

// UnescapeRun copies src to dst, decoding two-byte escapes, up to the end
// of src or a backslash that starts anything else (\u, or an error): n
// bytes written, m read. dst must have room for len(src)+16 bytes (as the
// amd64 version needs).
func UnescapeRun(dst []byte, src string) (n, m int) { return UnescapeRunGo(dst, src) }

// ASCIIRun is the length of the run of printable ASCII, tabs and newlines
// at the start of s.
func ASCIIRun(s string) int { return ASCIIRunGo(s) }
