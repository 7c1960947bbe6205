package sanitize

import (
	"math/rand/v2"
	"testing"
)

func asciiRunRef(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || (c < 0x20 && c != '\t' && c != '\n') {
			return i
		}
	}
	return len(s)
}

func checkASCIIRun(t *testing.T, s string) {
	t.Helper()
	want := asciiRunRef(s)
	if got := asciiRun(s); got != want {
		t.Fatalf("asciiRun(%q) = %d, want %d", s, got, want)
	}
	if got := asciiRunGo(s); got != want {
		t.Fatalf("asciiRunGo(%q) = %d, want %d", s, got, want)
	}
}

// TestASCIIRun puts every byte value at every position of strings of
// every length up to 40, and random mixes, through the assembly and the
// Go versions.
func TestASCIIRun(t *testing.T) {
	buf := make([]byte, 48)
	for c := 0; c < 256; c++ {
		for n := 0; n <= 40; n++ {
			for at := -1; at < n; at++ {
				b := buf[:n]
				for i := range b {
					b[i] = 'a' + byte(i%26)
				}
				if at >= 0 {
					b[at] = byte(c)
				}
				checkASCIIRun(t, string(b))
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		b := make([]byte, r.IntN(100))
		for i := range b {
			b[i] = byte(0x20 + r.IntN(0x5f))
			if r.IntN(30) == 0 {
				b[i] = byte(r.IntN(256))
			}
		}
		checkASCIIRun(t, string(b))
	}
}

func FuzzASCIIRun(f *testing.F) {
	f.Add("hello\tworld\n\x7f")
	f.Add("0123456789abcdef0123456789abcdef\x1b[31m")
	f.Fuzz(func(t *testing.T, s string) { checkASCIIRun(t, s) })
}
