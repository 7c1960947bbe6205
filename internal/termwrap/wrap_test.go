package termwrap

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

func rowsOf(ls []Line) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.S)
	}
	return out
}

func TestWrap(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	if got := Truncate("hello world", 8); got.S != "hello w…" || got.W != 8 {
		t.Errorf("got %+v", got)
	}
	if got := Truncate("\x1b[2mhello world\x1b[0m", 6); got.S != "\x1b[2mhello…\x1b[0m" {
		t.Errorf("got %q", got.S)
	}
}

// FuzzWrap holds Wrap to what it promises for any text: every row
// is as wide as it says and fits (but for a single cluster wider than
// the row), ends in no space, and the rows hold every non-space
// character of the input, in order.
func FuzzWrap(f *testing.F) {
	for _, s := range []string{"hello world", "the file explorer opens", "日本語のテキストとexplorerの混在",
		"/home/ari/repos/agentfmt", "a b\u2401c  d\r\n", "\x1b[1mbold words here\x1b[0m", "e\u0301 🎉🎉 x", "a\nb\n\nc"} {
		f.Add(s, 8)
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		if !utf8.ValidString(s) || width < 1 || width > 200 {
			return
		}
		for _, r := range s {
			if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 {
				return // Wrap is given sanitised text: tabs expanded, controls shown as pictures
			}
		}
		// AppendWrapIndented is Wrap with the prefixes put before its rows
		// that are not empty.
		rows := Wrap(s, width)
		ind := AppendWrapIndented(nil, s, width, "> ", "  ")
		if len(ind) != len(rows) {
			t.Fatalf("%d rows indented, %d not", len(ind), len(rows))
		}
		for i, l := range rows {
			want := l
			if l.S != "" {
				want.S = map[bool]string{true: "> ", false: "  "}[i == 0] + l.S
			}
			if ind[i] != want {
				t.Fatalf("indented row %d is %q (%d cells), want %q (%d)", i, ind[i].S, ind[i].W, want.S, want.W)
			}
		}
		var got strings.Builder
		for _, l := range rows {
			if l.W != Width(l.S) {
				t.Fatalf("row %q says %d cells, has %d", l.S, l.W, Width(l.S))
			}
			if l.W > width {
				n, _ := Fit(l.S, width)
				if n != len(l.S) {
					t.Fatalf("row %q is %d cells, more than %d", l.S, l.W, width)
				}
			}
			if strings.HasSuffix(l.S, " ") {
				t.Fatalf("row %q ends in a space", l.S)
			}
			got.WriteString(l.S)
		}
		if a, b := strings.ReplaceAll(strings.ReplaceAll(got.String(), " ", ""), "\n", ""),
			strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(s, " ", ""), "\n", ""), "\r", ""); a != strings.ReplaceAll(b, "\r", "") {
			t.Fatalf("Wrap(%q, %d) holds %q, want %q", s, width, a, b)
		}
	})
}

// FuzzSplitSGR: the IndexByte way of separating SGR sequences gives what
// the walk over grapheme clusters gives, whenever it takes the text.
func FuzzSplitSGR(f *testing.F) {
	for _, s := range []string{"\x1b[1mbold\x1b[22m and \x1b[3;36mcode\x1b[0m", "e\u0301\x1b[1m🎉\x1b[0m", "\x1b[", "\x1b[1", "\x1b]0;t\x07x", "a\x1b[38:5:1mb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		plain, marks, ok := splitSGR(s)
		if !ok {
			return
		}
		wp, wm := splitClusters(s)
		if plain != wp || len(marks) != len(wm) {
			t.Fatalf("splitSGR(%q) = %q %v, clusters give %q %v", s, plain, marks, wp, wm)
		}
		for i := range marks {
			if marks[i] != wm[i] {
				t.Fatalf("splitSGR(%q) marks %v, clusters give %v", s, marks, wm)
			}
		}
	})
}

// FuzzWrapPlain: the row-at-a-time wrapping of plain ASCII gives the
// rows the word-by-word wrapping gives, whenever it takes the text.
func FuzzWrapPlain(f *testing.F) {
	for _, s := range []string{"aaa    bbb", "aaa bbb   ", "aaaaa bb", "aa bbbbbbbb", "    indented words here", "      ", "x\n\ny\n", "", "\n", "a  b  c  d  e  f"} {
		f.Add(s, 5)
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		if width < 1 || width > 200 {
			return
		}
		samePlainRows(t, s, width)
	})
}

// samePlainRows checks that wrapPlain, when it takes s, gives the rows
// wrapGeneral gives, and reports whether it took it.
func samePlainRows(t *testing.T, s string, width int) bool {
	t.Helper()
	got, ok := wrapPlain(nil, s, width)
	if !ok {
		return false
	}
	if want := wrapGeneral(nil, s, width, width); !slices.Equal(got, want) {
		t.Fatalf("wrapPlain(%q, %d) = %v, wrapGeneral %v", s, width, got, want)
	}
	return true
}

// TestWrapPlainRandom: random text of words, spaces, newlines and an
// accented letter (a line the general way), at random widths, wraps the
// same both ways (the fuzzer rarely makes text of many plain lines).
func TestWrapPlainRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	taken := 0
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for l := rng.IntN(40); l > 0; l-- {
			b.WriteString([]string{"a", "a", "b", " ", " ", "\n", "-", "é"}[rng.IntN(8)])
		}
		if samePlainRows(t, b.String(), 1+rng.IntN(12)) {
			taken++
		}
	}
	if taken < 5000 {
		t.Fatalf("wrapPlain took only %d texts", taken)
	}
}

// A word of megabytes (a minified line, a run of '>' left of a quote too
// deep) is cut into rows in time in proportion to its length: each row's
// Fit looks at one row's worth of it, not at the rest of the word (what
// it cost before: docs/performance.md).
func TestLongWordLinear(t *testing.T) {
	timeOf := func(n int) time.Duration {
		s := strings.Repeat(">", n)
		best := time.Duration(1 << 62)
		for range 3 {
			start := cpuTime()
			if rows := Wrap(s, 36); len(rows) != (n+35)/36 {
				t.Fatalf("%d rows for %d cells", len(rows), n)
			}
			best = min(best, cpuTime()-start)
		}
		return best
	}
	// (CPU time, which a loaded machine does not stretch; its clock
	// ticks are coarse, hence the floor under the small one.)
	small, large := timeOf(20_000), timeOf(320_000)
	if ratio := float64(large) / float64(max(small, time.Millisecond)); ratio > 64 {
		t.Errorf("%v for 20,000 bytes, %v for 320,000 (×%.0f for ×16)", small, large, ratio)
	}
}
