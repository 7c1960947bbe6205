package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	cases := []struct {
		name, in, want string
		o              Options
	}{
		{"plain", "hello\tworld\n", "hello\tworld\n", Options{}},
		{"osc title", "\x1b]0;pwned\x07after", "␛]0;pwned␇after", Options{}},
		{"osc 52 clipboard", "\x1b]52;c;ZXZpbA==\x07x", "␛]52;c;ZXZpbA==␇x", Options{}},
		{"clear screen", "a\x1b[2Jb", "a␛[2Jb", Options{}},
		{"conceal", "\x1b[8msecret", "␛[8msecret", Options{}},
		{"one-byte csi", "a\u009b31mb", "a<U+009B>31mb", Options{}},
		{"bidi override", "abc\u202Edef", "abc<U+202E>def", Options{}},
		{"bidi isolate", "\u2066x\u2069", "<U+2066>x<U+2069>", Options{}},
		{"del", "a\x7fb", "a␡b", Options{}},
		{"crlf", "a\r\nb", "a\nb", Options{}},
		{"crlf kept", "a\r\nb", "a\r\nb", Options{KeepCR: true}},
		{"lone cr", "10%\r20%", "10%␍20%", Options{}},
		{"invalid utf8", "a\xffb", "a\uFFFDb", Options{}},
		{"wide chars kept", "日本語 🎉", "日本語 🎉", Options{}},
		{"sgr blocked", "\x1b[31mred\x1b[0m", "␛[31mred␛[0m", Options{}},
		{"sgr allowed", "\x1b[31mred\x1b[0m", "\x1b[31mred\x1b[0m", Options{AllowSGR: true}},
		{"only sgr allowed", "\x1b[2J\x1b[1;32mok", "␛[2J\x1b[1;32mok\x1b[0m", Options{AllowSGR: true}},
		{"bell", "\a", "␇", Options{}},
	}
	for _, c := range cases {
		if got := String(c.in, c.o); got != c.want {
			t.Errorf("%s: String(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// safe reports whether out holds no raw control byte a terminal obeys.
func safe(out string, allowSGR bool) bool {
	for i := 0; i < len(out); i++ {
		c := out[i]
		if c == 0x1b {
			if allowSGR && sgrLen(out[i:]) > 0 {
				i += sgrLen(out[i:]) - 1
				continue
			}
			return false
		}
		if (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f {
			return false
		}
	}
	for _, r := range out {
		if (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return false
		}
	}
	return utf8.ValidString(out)
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31mx\x1b[0m", "\x1b]0;t\x07", "\u009b2J", "\u202e", "\r\n\r", "\xff\xfe"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, in string, allow bool) {
		out := String(in, Options{AllowSGR: allow})
		if !safe(out, allow) {
			t.Fatalf("unsafe output %q for %q", out, in)
		}
		// Printable text survives.
		if clean(in) && out != in {
			t.Fatalf("clean text changed: %q -> %q", in, out)
		}
		if strings.Count(out, "\n") < strings.Count(in, "\n") {
			t.Fatalf("newlines lost")
		}
	})
}
