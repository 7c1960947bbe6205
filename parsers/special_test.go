package parsers

import (
	"math/rand/v2"
	"testing"
)

// stringRunRef is stringRun one byte at a time.
func stringRunRef(b []byte) int {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"' || c < 0x20:
			return i
		case c == '\\':
			if i+1 < len(b) {
				switch b[i+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					i++
					continue
				}
			}
			return i
		}
	}
	return len(b)
}

func checkRun(t *testing.T, b []byte) {
	t.Helper()
	want := stringRunRef(b)
	if got := stringRun(b); got != want {
		t.Fatalf("stringRun(%q) = %d, want %d", b, got, want)
	}
	if got := stringRunGo(b); got != want {
		t.Fatalf("stringRunGo(%q) = %d, want %d", b, got, want)
	}
}

// TestStringRun puts each special byte, and escapes, at every position of
// buffers of every length up to 80, at every alignment, and checks the
// assembly and the Go versions against the byte-by-byte reference.
func TestStringRun(t *testing.T) {
	buf := make([]byte, 100)
	pieces := []string{`"`, `\`, "\x00", "\x1f", " ", "!", "#", "[", "]", "\x7f", "\x80", "\x9f", "\xff", "\n",
		`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u`, `\u00e9`, `\x`, `\\"`, `\\\`, `\"\"`}
	for _, p := range pieces {
		for off := 0; off < 8; off++ {
			for n := 0; n <= 80; n++ {
				for at := -1; at < n; at++ {
					b := buf[off : off+n]
					for i := range b {
						b[i] = 'a' + byte(i%26)
					}
					if at >= 0 {
						copy(b[at:], p)
					}
					checkRun(t, b)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab\"\\\\\\nrt/u\x01 ")
	for range 50000 {
		b := make([]byte, r.IntN(120))
		for i := range b {
			b[i] = byte(0x20 + r.IntN(0xe0))
			if r.IntN(4) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
		}
		checkRun(t, b)
	}
}

func FuzzStringRun(f *testing.F) {
	f.Add([]byte(`abc"def`))
	f.Add([]byte(`0123456789abcd\"ef0123456789\\abc\u00e9def` + "\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkRun(t, b)
	})
}
