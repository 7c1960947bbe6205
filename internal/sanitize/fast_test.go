package sanitize

import (
	"strings"
	"testing"
)

// String's fast path (text returned as it is, or copied up to the first
// change) gives exactly what Append gives.
func FuzzStringIsAppend(f *testing.F) {
	for _, s := range []string{"", "plain text.", "tab\there\nnext line", "zażółć gęślą jaźń 🎉 日本語",
		"12345678\x1b[31mred\x1b[0m", "1234567\r\n", "abcdefgh\u009b2J", "\u202eevil", "ok\xffbad", "\x7fdel",
		strings.Repeat("long ascii line ", 20) + "\x07"} {
		f.Add(s, uint8(ShowSGR), false, false)
		f.Add(s, uint8(PassSGR), true, false)
		f.Add(s, uint8(DrawSGR), false, true)
		f.Add(s, uint8(DropSGR), true, true)
	}
	f.Fuzz(func(t *testing.T, in string, sgr uint8, cr, over bool) {
		o := Options{SGR: SGR(sgr % 4), KeepCR: cr, Overwrite: over}
		if got, want := String(in, o), string(Append(nil, in, o)); got != want {
			t.Fatalf("String(%q) = %q, Append gives %q", in, got, want)
		}
	})
}

func TestStringNoCopy(t *testing.T) {
	s := strings.Repeat("the build passes now — zażółć 🎉\ttab\n", 50)
	if n := testing.AllocsPerRun(20, func() { _ = String(s, Options{}) }); n != 0 {
		t.Errorf("String allocates %.0f times for text that needs no change", n)
	}
}

func BenchmarkString(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"ascii", strings.Repeat("src/pkg/file.go:12: the function returns an error\n", 100)},
		{"utf8", strings.Repeat("zażółć gęślą jaźń — 日本語 テスト 🎉 done\n", 100)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			b.ReportAllocs()
			for b.Loop() {
				_ = String(c.s, Options{})
			}
		})
	}
}
