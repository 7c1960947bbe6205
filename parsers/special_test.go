package parsers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
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

func checkUnescapeRun(t *testing.T, src string) {
	t.Helper()
	a := make([]byte, len(src)+16)
	g := make([]byte, len(src))
	n, m := unescapeRun(a, src)
	gn, gm := unescapeRunGo(g, src)
	if n != gn || m != gm || string(a[:n]) != string(g[:gn]) {
		t.Fatalf("unescapeRun(%q) = %q, %d; Go: %q, %d", src, a[:n], m, g[:gn], gm)
	}
	// It stops at the end or at a backslash that is not a two-byte escape.
	if m < len(src) && (src[m] != '\\' || (m+1 < len(src) && strings.IndexByte(`"\/bfnrt`, src[m+1]) >= 0)) {
		t.Fatalf("unescapeRun(%q) stopped at %d", src, m)
	}
	// Whatever it stops at, appendUnescaped decodes as gjson does.
	if q := `"` + src + `"`; gjson.Valid(q) {
		if got, want := string(appendUnescaped([]byte("x"), src)), "x"+gjson.Parse(q).Str; got != want {
			t.Fatalf("appendUnescaped(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestUnescapeRun puts escapes at every position of strings of every
// length up to 60, and random mixes, through the assembly and the Go
// versions.
func TestUnescapeRun(t *testing.T) {
	pieces := []string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\ud83c\udf89`, `\ud800`, `\x`, `\`, `é`, "\x7f"}
	for _, p := range pieces {
		for n := 0; n <= 60; n++ {
			for at := -1; at < n; at++ {
				b := make([]byte, 0, n+len(p))
				for i := 0; i < n; i++ {
					if i == at {
						b = append(b, p...)
					}
					b = append(b, 'a'+byte(i%26))
				}
				checkUnescapeRun(t, string(b))
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(40) {
			if r.IntN(3) == 0 {
				b.WriteString(pieces[r.IntN(len(pieces))])
			} else {
				b.WriteString("abcdefghijklmnopq"[:1+r.IntN(16)])
			}
		}
		checkUnescapeRun(t, b.String())
	}
}

func FuzzUnescapeRun(f *testing.F) {
	f.Add(`line\n\"q\"\\ \/ \b\f\r\t \u00e9 \ud83c\udf89`)
	f.Add(`0123456789abcdef\n0123456789abcdef\x`)
	f.Fuzz(func(t *testing.T, s string) { checkUnescapeRun(t, s) })
}
