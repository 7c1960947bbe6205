//go:build !purego

package simd

// StringRun is the length of the run of JSON string text at the start of
// b: the index of the first '"', control character (< 0x20) or backslash
// that does not start a two-byte escape (\" \\ \/ \b \f \n \r \t), or
// len(b). Two-byte escapes are part of the run.
//
//go:noescape
func StringRun(b []byte) int

// UnescapeRun copies src to dst, decoding two-byte escapes, up to the end
// of src or a backslash that starts anything else (\u, or an error): n
// bytes written, m read. It may write up to 16 bytes past n: dst must
// have room for len(src)+16 bytes.
//
//go:noescape
func UnescapeRun(dst []byte, src string) (n, m int)

// ASCIIRun is the length of the run of printable ASCII, tabs and newlines
// at the start of s.
//
//go:noescape
func ASCIIRun(s string) int
