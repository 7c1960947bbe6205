// Package view holds agentfmt's unsafe code, all of it: views of memory
// as a string or as bytes without a copy, and where one string lies in
// another. The decoder reads each line once and hands its parsers strings
// that are parts of it; the renderers read text they hold as bytes; these
// let them do so without copying a line of megabytes.
package view

import "unsafe"

// String is b as a string, without a copy: valid while b is not written.
func String(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Bytes is s as bytes, without a copy. Writing them changes s: only for
// a string made from memory that may be written (a String of a buffer the
// caller owns), never for a literal.
func Bytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// Offset reports where s starts in outer, when s is a part of outer (a
// substring sharing its memory).
func Offset(outer, s string) (int, bool) {
	if len(s) == 0 || len(outer) == 0 {
		return 0, false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	q := uintptr(unsafe.Pointer(unsafe.StringData(outer)))
	if p < q || p+uintptr(len(s)) > q+uintptr(len(outer)) {
		return 0, false
	}
	return int(p - q), true
}
