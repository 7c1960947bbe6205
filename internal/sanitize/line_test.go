package sanitize

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                           "plain",
		"a\nb\tc":                         "a␤b c",
		"\x1b]52;c;aGk=\x07x":             "␛]52;c;aGk=␇x",
		"ok\r::add-mask::x":               "ok␍::add-mask::x",
		"::error file=a::x":               "\u200b::error file=a::x",
		"  ::warning::x":                  "  \u200b::warning::x",
		"x ##[set-output name=a]b":        "x ##\u200b[set-output name=a]b",
		"\x1b[2J\n::stop-commands::t\r\n": "␛[2J␤::stop-commands::t␤",
	} {
		got := Line(in)
		if got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
		if strings.ContainsAny(got, "\n\r\x1b") {
			t.Errorf("Line(%q) = %q: not one safe line", in, got)
		}
	}
}
