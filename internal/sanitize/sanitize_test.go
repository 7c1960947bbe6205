package sanitize

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

func TestString(t *testing.T) {
	t.Parallel()
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
		{"sgr allowed", "\x1b[31mred\x1b[0m", "\x1b[31mred\x1b[0m", Options{SGR: PassSGR}},
		{"only sgr allowed", "\x1b[2J\x1b[1;32mok", "␛[2J\x1b[1;32mok\x1b[0m", Options{SGR: PassSGR}},
		{"bell", "\a", "␇", Options{}},
	}
	for _, c := range cases {
		if got := String(c.in, c.o); got != c.want {
			t.Errorf("%s: String(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// safe reports whether out holds no raw control byte a terminal obeys
// (but SGR sequences that do not conceal, when allowSGR is set).
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
	for _, s := range []string{"", "plain", "\x1b[31mx\x1b[0m", "\x1b]0;t\x07", "\u009b2J", "\u202e", "\r\n\r", "\xff\xfe",
		"50%\r\x1b[1;32m100%\x1b[m\r\n", "\x1b[38;5;199;8;5;7mx", "a\x1b\x1b[31m[2J", "\x1b[\x1b[31m2J"} {
		for mode := range 4 {
			f.Add(s, uint8(mode), mode%2 == 0)
		}
	}
	f.Fuzz(func(t *testing.T, in string, sgr uint8, over bool) {
		mode := SGR(sgr % 4)
		out := String(in, Options{SGR: mode, Overwrite: over})
		if !safe(out, mode == PassSGR || mode == DrawSGR) {
			t.Fatalf("unsafe output %q for %q", out, in)
		}
		if mode == DrawSGR {
			// Only what drawable makes: no blink, reverse, conceal,
			// strike; every line closed.
			for _, l := range strings.Split(out, "\n") {
				if err := drawnOnly(l); err != nil {
					t.Fatalf("%v in %q for %q", err, out, in)
				}
			}
		}
		if mode == DropSGR && strings.Contains(out, "\x1b") {
			t.Fatalf("an SGR was not dropped: %q for %q", out, in)
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

// drawnOnly checks a line that DrawSGR made: its SGR sequences set only
// colours, bold, dim, italic, underline or their resets, and a line that
// set any ends with a reset.
func drawnOnly(line string) error {
	styled := false
	for i := 0; i < len(line); i++ {
		if line[i] != 0x1b {
			continue
		}
		n := sgrSeqLen(line[i:])
		if n == 0 {
			return fmt.Errorf("an escape that is not SGR at %d", i)
		}
		seq := line[i : i+n]
		if drawable(seq[2:n-1]) != seq {
			return fmt.Errorf("%q is not drawable as it is", seq)
		}
		styled = !isReset(seq)
		i += n - 1
	}
	if styled {
		return errors.New("a styled line without a reset at its end")
	}
	return nil
}

// Tool output drawn (pretty, html), dropped (plain, markdown) or passed
// (--allow-color): only colour, bold, dim, italic and underline are drawn;
// nothing but SGR is ever let through; a progress line's carriage returns
// leave what a terminal shows.
func TestSGRModes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in, want string
		o              Options
	}{
		{"drop", "ok \x1b[1;31mFAIL\x1b[0m done", "ok FAIL done", Options{SGR: DropSGR}},
		{"drop keeps other escapes visible", "\x1b[31mred\x1b[2J\x1b]0;t\x07", "red␛[2J␛]0;t␇", Options{SGR: DropSGR}},
		{"drop cannot join an escape", "a\x1b\x1b[31m[2J", "a␛[2J", Options{SGR: DropSGR}},
		{"draw colour", "\x1b[32mPASS\x1b[0m", "\x1b[32mPASS\x1b[0m", Options{SGR: DrawSGR}},
		{"draw closes each line", "\x1b[1;4mhead\nnext", "\x1b[1;4mhead\x1b[0m\nnext", Options{SGR: DrawSGR}},
		{"draw 256 and rgb", "\x1b[38;5;208;48;2;1;2;3mx", "\x1b[38;5;208;48;2;1;2;3mx\x1b[0m", Options{SGR: DrawSGR}},
		{"draw colon forms", "\x1b[38:2::10:20:30mx\x1b[m", "\x1b[38;2;10;20;30mx\x1b[0m", Options{SGR: DrawSGR}},
		{"draw leaves out blink reverse conceal strike", "\x1b[5;7;8;9;31mx\x1b[6m", "\x1b[31mx\x1b[0m", Options{SGR: DrawSGR}},
		{"draw italic dim and resets", "\x1b[2;3mx\x1b[22;23;39;49my", "\x1b[2;3mx\x1b[22;23;39;49my\x1b[0m", Options{SGR: DrawSGR}},
		{"draw refuses bad colours", "\x1b[38;5;300;31mx", "\x1b[31mx\x1b[0m", Options{SGR: DrawSGR}},
		{"draw other escapes visible", "\x1b[31ma\x1b[2Jb\x1b[?25l", "\x1b[31ma␛[2Jb␛[?25l\x1b[0m", Options{SGR: DrawSGR}},
		{"draw hidden: same colours", "\x1b[30;40mx\x1b[0m \x1b[37;47my", "\x1b[30;40;49mx\x1b[0m \x1b[37;47;49my\x1b[0m", Options{SGR: DrawSGR}},
		{"draw hidden: rgb", "\x1b[38;2;1;1;1m\x1b[48;2;0;0;0mx", "\x1b[38;2;1;1;1m\x1b[48;2;0;0;0;49mx\x1b[0m", Options{SGR: DrawSGR}},
		{"draw hidden: text set last", "\x1b[44m\x1b[34mx", "\x1b[44m\x1b[34;49mx\x1b[0m", Options{SGR: DrawSGR}},
		{"draw hidden: 256 and basic", "\x1b[38;5;16;40mx", "\x1b[38;5;16;40;49mx\x1b[0m", Options{SGR: DrawSGR}},
		{"draw closes an rgb background ending in 0", "\x1b[48;2;255;0;0mx", "\x1b[48;2;255;0;0mx\x1b[0m", Options{SGR: DrawSGR}},
		{"draw readable colours kept", "\x1b[97;41mx\x1b[30;47my\x1b[90;40mz", "\x1b[97;41mx\x1b[30;47my\x1b[90;40mz\x1b[0m", Options{SGR: DrawSGR}},
		{"draw hidden: each line anew", "\x1b[30;40mx\n\x1b[40my", "\x1b[30;40;49mx\x1b[0m\n\x1b[40my\x1b[0m", Options{SGR: DrawSGR}},
		{"pass as it came", "\x1b[5;31mx", "\x1b[5;31mx\x1b[0m", Options{SGR: PassSGR}},
		{"overwrite", "50%\r100%", "100%", Options{Overwrite: true}},
		{"overwrite as a terminal", "100%\r50%", "50%%", Options{Overwrite: true}},
		{"overwrite many", "1/3\r2/3\r3/3 done\nnext\r\n", "3/3 done\nnext\n", Options{Overwrite: true}},
		{"overwrite trailing cr", "abc\r", "abc", Options{Overwrite: true}},
		{"overwrite keeps crlf", "a\rb\r\nc", "b\r\nc", Options{Overwrite: true, KeepCR: true}},
		{"overwrite styled", "\x1b[31m10%\x1b[0m\r\x1b[32m100%\x1b[0m", "\x1b[32m100%\x1b[0m", Options{Overwrite: true, SGR: DrawSGR}},
		{"overwrite part styled", "\x1b[1mabcdef\x1b[0m\rXY", "XY\x1b[1mcdef\x1b[0m", Options{Overwrite: true, SGR: DrawSGR}},
		{"overwrite other escapes visible", "a\x1b[2Kb\rc", "c␛[2Kb", Options{Overwrite: true}},
		{"no overwrite", "50%\r100%", "50%␍100%", Options{SGR: DrawSGR}},
	} {
		if got := String(c.in, c.o); got != c.want {
			t.Errorf("%s: String(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

func TestStripSGR(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[1;31mred\x1b[0m and \x1b[m", "red and "},
		{"\x1b[38:2::255:0:0mrgb\x1b[39m", "rgb"},
		{"\x1b[2Jclear \x1b]0;title\x07 \x1b[31", "\x1b[2Jclear \x1b]0;title\x07 \x1b[31"}, // not SGR, or unfinished: kept
		{"\x1b\x1b[1mx", "\x1bx"},
	} {
		if got := StripSGR(c.in); got != c.want {
			t.Errorf("StripSGR(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
