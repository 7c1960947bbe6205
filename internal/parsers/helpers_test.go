package parsers

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestJSONString(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", "quote \" and \\ slash", "ctl \x00\x1f\t\r\n", "bad \xff utf8", "é ✓ 😀", "<a> & <b>"} {
		q := JSONString(s)
		if !gjson.Valid(q) {
			t.Errorf("JSONString(%q) = %s is not valid JSON", s, q)
		}
		if s != "bad \xff utf8" && gjson.Parse(q).String() != s {
			t.Errorf("JSONString(%q) round-trips to %q", s, gjson.Parse(q).String())
		}
	}
	if got := JSONString("<a> & b"); got != `"<a> & b"` {
		t.Errorf("JSONString escapes HTML: %s", got)
	}
}

func TestFirstLine(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "", "one": "one", "  \n two \nthree": "two ", "a\r\nb": "a\r"} {
		if got := FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", in, got, want)
		}
	}
}
