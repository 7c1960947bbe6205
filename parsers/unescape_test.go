package parsers

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/simd/simdtest"
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
	simdtest.Escaped(func(s string) { checkUnescape(t, s) })
}

func FuzzAppendUnescaped(f *testing.F) {
	f.Add(`line\n\"q\"\\ \/ \b\f\r\t \u00e9 \ud83c\udf89`)
	f.Fuzz(func(t *testing.T, s string) { checkUnescape(t, s) })
}
