// Package simdtest makes the inputs that the tests of the string scans
// (internal/simd) and of the decoding built on them (parsers) share.
package simdtest

import (
	"math/rand/v2"
	"strings"
)

// Pieces are what a JSON string body holds besides plain letters: every
// escape, good and bad, a surrogate pair and a lone surrogate, a lone
// backslash, UTF-8 and DEL.
var Pieces = []string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\ud83c\udf89`, `\ud800`, `\x`, `\`, `é`, "\x7f"}

// Escaped calls f with every piece at every position of strings of
// letters of every length up to 60 (so at every offset from a sixteen-byte
// boundary), then with 20000 random mixes of pieces and letters.
func Escaped(f func(s string)) {
	for _, p := range Pieces {
		for n := 0; n <= 60; n++ {
			for at := -1; at < n; at++ {
				b := make([]byte, 0, n+len(p))
				for i := 0; i < n; i++ {
					if i == at {
						b = append(b, p...)
					}
					b = append(b, 'a'+byte(i%26))
				}
				f(string(b))
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(40) {
			if r.IntN(3) == 0 {
				b.WriteString(Pieces[r.IntN(len(Pieces))])
			} else {
				b.WriteString("abcdefghijklmnopq"[:1+r.IntN(16)])
			}
		}
		f(b.String())
	}
}
