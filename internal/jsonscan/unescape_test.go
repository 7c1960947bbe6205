package jsonscan

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/simd/simdtest"
	"github.com/tidwall/gjson"
)

// checkUnescape holds AppendUnescaped and UnescapeInPlace to gjson on a valid JSON string body.
func checkUnescape(t *testing.T, src string) {
	t.Helper()
	if q := `"` + src + `"`; gjson.Valid(q) {
		want := gjson.Parse(q).Str
		if got := string(AppendUnescaped([]byte("x"), src)); got != "x"+want {
			t.Fatalf("AppendUnescaped(%q) = %q, want %q", src, got, "x"+want)
		}
		b := []byte(src)
		if got := string(b[:UnescapeInPlace(b)]); got != want {
			t.Fatalf("UnescapeInPlace(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestAppendUnescaped puts escapes at every position of strings of every
// length up to 60, and random mixes.
func TestAppendUnescaped(t *testing.T) {
	t.Parallel()
	simdtest.Escaped(func(s string) { checkUnescape(t, s) })
}

func FuzzAppendUnescaped(f *testing.F) {
	f.Add(`line\n\"q\"\\ \/ \b\f\r\t \u00e9 \ud83c\udf89`)
	f.Fuzz(func(t *testing.T, s string) { checkUnescape(t, s) })
}
