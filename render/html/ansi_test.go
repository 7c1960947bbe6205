package html

import "testing"

func TestANSIHTML(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain <b>":                              "plain &lt;b&gt;",
		"\x1b[31mred\x1b[0m":                     `<span class="a-f1">red</span>`,
		"\x1b[1m\x1b[4mbu\x1b[24mb\x1b[0m":       `<span class="a-b"></span><span class="a-b a-u">bu</span><span class="a-b">b</span>`,
		"\x1b[38;5;208;48;2;0;0;238mx\x1b[0m":    `<span class="a-f3 a-g4">x</span>`,
		"\x1b[38;5;244;48;5;4mx\x1b[39;49my":     `<span class="a-f8 a-g4">x</span>y`,
		"\x1b[2;3;97;100mx\x1b[22;23mx\x1b[0m":   `<span class="a-d a-i a-f15 a-g8">x</span><span class="a-f15 a-g8">x</span>`,
		"a\x1b[31m1\x1b[0m\nb\x1b[32m2\x1b[0m\n": "a<span class=\"a-f1\">1</span>\nb<span class=\"a-f2\">2</span>\n",
		// Text in its background's colour is drawn on the page's own.
		"\x1b[30;40mhidden\x1b[0m":                      `<span class="a-f0">hidden</span>`,
		"\x1b[37;47mhidden\x1b[0m":                      `<span class="a-f7">hidden</span>`,
		"\x1b[38;2;1;1;1m\x1b[48;2;0;0;0mhidden\x1b[0m": `<span class="a-f0"></span><span class="a-f0">hidden</span>`,
		"\x1b[38;2;60;60;60;48;2;0;0;0mfaint\x1b[0m":    `<span class="a-f0">faint</span>`,
	} {
		if got := string(ansiHTML(cleanOutput(in))); got != want {
			t.Errorf("ansiHTML(%q) = %q, want %q", in, got, want)
		}
	}
}
