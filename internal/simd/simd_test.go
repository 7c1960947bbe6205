package simd

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/simd/simdtest"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// stringRunRef is StringRun one byte at a time.
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
	if got := StringRun(b); got != want {
		t.Fatalf("StringRun(%q) = %d, want %d", b, got, want)
	}
	if got := StringRunGo(b); got != want {
		t.Fatalf("StringRunGo(%q) = %d, want %d", b, got, want)
	}
}

// TestStringRun puts each special byte, and escapes, at every position of
// buffers of every length up to 80, at every alignment, and checks the
// assembly and the Go versions against the byte-by-byte reference.
func TestStringRun(t *testing.T) {
	t.Parallel()
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

func checkUnescapeRun(t *testing.T, src string) {
	t.Helper()
	a := make([]byte, len(src)+16)
	g := make([]byte, len(src))
	n, m := UnescapeRun(a, src)
	gn, gm := UnescapeRunGo(g, src)
	if n != gn || m != gm || string(a[:n]) != string(g[:gn]) {
		t.Fatalf("UnescapeRun(%q) = %q, %d; Go: %q, %d", src, a[:n], m, g[:gn], gm)
	}
	// It stops at the end or at a backslash that is not a two-byte escape.
	if m < len(src) && (src[m] != '\\' || (m+1 < len(src) && strings.IndexByte(`"\/bfnrt`, src[m+1]) >= 0)) {
		t.Fatalf("UnescapeRun(%q) stopped at %d", src, m)
	}
}

// TestUnescapeRun puts escapes at every position of strings of every
// length up to 60, and random mixes, through the assembly and the Go
// versions.
func TestUnescapeRun(t *testing.T) {
	t.Parallel()
	simdtest.Escaped(func(s string) { checkUnescapeRun(t, s) })
}

func FuzzUnescapeRun(f *testing.F) {
	f.Add(`line\n\"q\"\\ \/ \b\f\r\t \u00e9 \ud83c\udf89`)
	f.Add(`0123456789abcdef\n0123456789abcdef\x`)
	f.Fuzz(func(t *testing.T, s string) { checkUnescapeRun(t, s) })
}

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
	if got := ASCIIRun(s); got != want {
		t.Fatalf("ASCIIRun(%q) = %d, want %d", s, got, want)
	}
	if got := ASCIIRunGo(s); got != want {
		t.Fatalf("ASCIIRunGo(%q) = %d, want %d", s, got, want)
	}
}

// TestASCIIRun puts every byte value at every position of strings of
// every length up to 40, and random mixes, through the assembly and the
// Go versions.
func TestASCIIRun(t *testing.T) {
	t.Parallel()
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
