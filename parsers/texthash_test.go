package parsers

import (
	"strings"
	"testing"
)

// checkRunText feeds chunks to a TextHash and to a plain buffer, and
// compares their answers to the questions complete() asks.
func checkRunText(t *testing.T, chunks []string, probes []string) {
	t.Helper()
	var r TextHash
	r.Reset()
	var all []byte
	for _, c := range chunks {
		r.Add(c)
		all = append(all, c...)
		if r.Empty() != (len(all) == 0) || r.Len() != len(all) {
			t.Fatalf("%q: %d bytes, want %d", chunks, r.n, len(all))
		}
		for _, p := range append(probes, string(all), strings.TrimSpace(string(all)), string(all)+"more", "x"+string(all)) {
			if got, want := r.PrefixOf(p), len(all) > 0 && strings.HasPrefix(p, string(all)); got != want {
				t.Fatalf("%q: prefixOf(%q) = %v, want %v", chunks, p, got, want)
			}
			trimmed := strings.TrimSpace(p)
			if trimmed == "" {
				continue
			}
			if got, want := r.TrimmedIs(trimmed), trimmed == strings.TrimSpace(string(all)); got != want {
				t.Fatalf("%q: trimmedIs(%q) = %v, want %v (all %q)", chunks, trimmed, got, want, all)
			}
		}
	}
}

func TestRunText(t *testing.T) {
	cases := [][]string{
		{"hello", " world"},
		{"  lead", "ing  ", "\n"},
		{" ", "\t", "\n"},
		{"a\u00a0", "b\u2028"},
		{"cut \xc2", "\xa0 nbsp"},      // a no-break space cut in two
		{"bad \xff", " tail"},          // invalid UTF-8
		{"end cut \xe2\x80"},           // a rune never completed
		{"x", " ", "\xe2\x80", "\xa8"}, // line separator in pieces
	}
	for _, c := range cases {
		checkRunText(t, c, []string{"hello world", "leading", "a\u00a0 b", "end cut \xe2\x80"})
	}
}

func FuzzRunText(f *testing.F) {
	f.Add("hello world", 3, " leading")
	f.Add("cut \xc2\xa0 nbsp", 5, "x")
	f.Fuzz(func(t *testing.T, s string, cut int, probe string) {
		if cut < 0 {
			cut = -cut
		}
		cut %= len(s) + 1
		checkRunText(t, []string{s[:cut], s[cut:], s}, []string{probe, s, strings.TrimSpace(s)})
	})
}

// The run's text is not kept: memory does not grow with it.
func TestRunTextConstant(t *testing.T) {
	var r TextHash
	r.Reset()
	chunk := strings.Repeat("some text ", 100)
	for i := 0; i < 10000; i++ {
		r.Add(chunk)
	}
	if cap(r.pend) > 64 || cap(r.hold) > 8 {
		t.Errorf("kept %d + %d bytes", cap(r.pend), cap(r.hold))
	}
	if !r.PrefixOf(strings.Repeat(chunk, 10000)) {
		t.Error("not a prefix")
	}
}
