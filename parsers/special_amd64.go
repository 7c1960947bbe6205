package parsers

// stringRun is the length of the run of JSON string text at the start of
// b: the index of the first '"', control character or backslash that
// does not start a two-byte escape, or len(b). (special_amd64.s)
//
//go:noescape
func stringRun(b []byte) int

// unescapeRun copies src to dst, decoding two-byte escapes, up to the end
// of src or a backslash that starts anything else (\u, or an error): n
// bytes written, m read. It may write up to 16 bytes past n: dst must
// have room for len(src)+16 bytes. (special_amd64.s)
//
//go:noescape
func unescapeRun(dst []byte, src string) (n, m int)
