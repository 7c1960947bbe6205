package parsers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// checkUnescape holds appendUnescaped to gjson on a valid JSON string body.
func checkUnescape(t *testing.T, src string) {
	t.Helper()
	if q := `"` + src + `"`; gjson.Valid(q) {
		if got, want := string(appendUnescaped([]byte("x"), src)), "x"+gjson.Parse(q).Str; got != want {
			t.Fatalf("appendUnescaped(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestAppendUnescaped puts escapes at every position of strings of every
// length up to 60, and random mixes.
func TestAppendUnescaped(t *testing.T) {
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
				checkUnescape(t, string(b))
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
		checkUnescape(t, b.String())
	}
}

func FuzzAppendUnescaped(f *testing.F) {
	f.Add(`line\n\"q\"\\ \/ \b\f\r\t \u00e9 \ud83c\udf89`)
	f.Fuzz(func(t *testing.T, s string) { checkUnescape(t, s) })
}
