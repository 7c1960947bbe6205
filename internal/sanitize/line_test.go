package sanitize

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	t.Parallel()
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

// --allow-color: a line that sets colours ends with a reset, so they
// cannot bleed into the lines after (a black-on-black answer).
func TestAllowSGRResetsEachLine(t *testing.T) {
	t.Parallel()
	o := Options{SGR: PassSGR}
	for in, want := range map[string]string{
		"\x1b[30;40mhidden\nnext":           "\x1b[30;40mhidden\x1b[0m\nnext",
		"\x1b[1mbold\x1b[0m\nplain":         "\x1b[1mbold\x1b[0m\nplain",
		"\x1b[31mred":                       "\x1b[31mred\x1b[0m",
		"\x1b[32mok\r\n":                    "\x1b[32mok\x1b[0m\n",
		"no colour\n":                       "no colour\n",
		"\x1b[31ma\x1b[m\n\x1b[2J\x1b[33mb": "\x1b[31ma\x1b[m\n␛[2J\x1b[33mb\x1b[0m",
	} {
		if got := String(in, o); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
