// Package simd finds the end of runs of ordinary text sixteen bytes at a
// time: the scans the hot paths of agentfmt spend their time in (a JSON
// line's strings when it is validated, escapes when they are decoded,
// printable text when it is sanitised). On amd64 they are written with
// SSE2, which every amd64 processor has (simd_amd64.s); elsewhere the Go
// versions here, eight bytes at a time, stand in. Tests hold each
// assembly function to its Go version and to a byte-by-byte reference.
package simd

import (
	"encoding/binary"
	"math/bits"
	"strings"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// Special returns a mask whose lowest set bit is in the first byte of x
// (little-endian) that is a '"', a '\\' or a control character (< 0x20),
// or 0 when there is none. Bits above the first hit may be wrong.
func Special(x uint64) uint64 {
	q := x ^ (ones * '"')
	b := x ^ (ones * '\\')
	return ((x-ones*0x20)&^x | (q-ones)&^q | (b-ones)&^b) & highs
}

// StringRunGo is StringRun in Go.
func StringRunGo(b []byte) int {
	i := 0
	for {
		for i+8 <= len(b) {
			if m := Special(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
			i++
		}
		if i+1 >= len(b) || b[i] != '\\' {
			return min(i, len(b))
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		default:
			return i
		}
	}
}

// UnescapeRunGo is UnescapeRun in Go: dst needs room for len(src) bytes.
func UnescapeRunGo(dst []byte, src string) (n, m int) {
	for {
		k := strings.IndexByte(src[m:], '\\')
		if k < 0 {
			k = len(src) - m
		}
		n += copy(dst[n:], src[m:m+k])
		m += k
		if m+1 >= len(src) {
			return n, m
		}
		var c byte
		switch src[m+1] {
		case '\\', '/', '"':
			c = src[m+1]
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		default:
			return n, m
		}
		dst[n] = c
		n++
		m += 2
	}
}

// ASCIIRunGo is ASCIIRun in Go.
func ASCIIRunGo(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		d := x ^ (ones * 0x7f)
		if (x|(x-ones*0x20)|(d-ones)&^d)&highs != 0 {
			break // not eight bytes of printable ASCII
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || (c < 0x20 && c != '\t' && c != '\n') {
			return i
		}
	}
	return i
}
