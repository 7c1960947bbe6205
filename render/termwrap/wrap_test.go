package termwrap

import (
	"strings"
	"testing"
)

func rowsOf(ls []Line) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.S)
	}
	return out
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  []string
	}{
		{"hello world", 20, []string{"hello world"}},
		{"hello world  ", 20, []string{"hello world"}},
		{"hello world", 8, []string{"hello", "world"}},
		{"the file explorer opens", 12, []string{"the file", "explorer", "opens"}},
		// CJK breaks between ideographs; Latin words stay whole.
		{"日本語のテキストとexplorerの混在", 12, []string{"日本語のテキ", "ストと", "explorerの混", "在"}},
		{"/home/ari/repos/agentfmt", 12, []string{"/home/ari/", "repos/", "agentfmt"}},
		{"abcdefghijklmnop", 5, []string{"abcde", "fghij", "klmno", "p"}},
		{"  indented text", 40, []string{"  indented text"}},
		{"a\nb", 10, []string{"a", "b"}},
		{"", 10, []string{""}},
		{"\x1b[1mbold words here\x1b[0m", 6, []string{"\x1b[1mbold\x1b[0m", "\x1b[1mwords\x1b[0m", "\x1b[1mhere\x1b[0m"}},
	} {
		got := rowsOf(Wrap(tc.in, tc.width))
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
		for _, l := range Wrap(tc.in, tc.width) {
			if l.W > tc.width || l.W != Width(l.S) {
				t.Errorf("Wrap(%q, %d): row %q has width %d (measured %d)", tc.in, tc.width, l.S, l.W, Width(l.S))
			}
			if strings.HasSuffix(Strip(l.S), " ") {
				t.Errorf("Wrap(%q, %d): row %q ends in a space", tc.in, tc.width, l.S)
			}
		}
	}
}

func TestTruncate(t *testing.T) {
	if got := Truncate("hello world", 8); got.S != "hello w…" || got.W != 8 {
		t.Errorf("got %+v", got)
	}
	if got := Truncate("\x1b[2mhello world\x1b[0m", 6); got.S != "\x1b[2mhello…\x1b[0m" {
		t.Errorf("got %q", got.S)
	}
}
