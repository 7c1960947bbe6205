package render

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
)

var testGlyphs = []string{"a", "b", "c", " ", "x", "-", "表", "語", "🎉", "é", "→"}

// randomRow is a row of at most width cells mixing narrow and wide glyphs
// and styled runs; often exactly width cells, to end in the pending-wrap
// state.
func randomRow(rng *rand.Rand, width int) row {
	target := rng.Intn(width + 1)
	if rng.Intn(3) == 0 {
		target = width
	}
	var b strings.Builder
	w := 0
	styled := false
	for w < target {
		g := testGlyphs[rng.Intn(len(testGlyphs))]
		gw := cells(g)
		if w+gw > target {
			if target-w == 1 {
				g, gw = ".", 1
			} else {
				break
			}
		}
		if rng.Intn(8) == 0 {
			if styled {
				b.WriteString("\x1b[22;39m")
			} else {
				b.WriteString([]string{"\x1b[1m", "\x1b[36m", "\x1b[2;33m"}[rng.Intn(3)])
			}
			styled = !styled
		}
		b.WriteString(g)
		w += gw
	}
	if styled {
		b.WriteString("\x1b[0m")
	}
	return row{s: b.String(), w: w}
}

// grow appends glyphs to a row, as streaming text does.
func grow(rng *rand.Rand, r row, width int) row {
	s := strings.TrimSuffix(r.s, "\x1b[0m")
	reset := len(s) != len(r.s)
	w := r.w
	for n := rng.Intn(6); n > 0; n-- {
		g := testGlyphs[rng.Intn(len(testGlyphs))]
		if w+cells(g) > width {
			break
		}
		s += g
		w += cells(g)
	}
	if reset {
		s += "\x1b[0m"
	}
	return row{s: s, w: w}
}

func plainText(r row) string { return strings.TrimRight(sanitize.StripSGR(r.s), " ") }

// TestScreenDrawMatchesEmulator draws random sequences of committed rows
// and live regions (rows that grow, change, shrink, vanish; wide glyphs;
// styles; rows exactly as wide as the terminal) and checks after every
// draw that the emulated terminal shows every committed row once, in
// order, followed by the live region.
func TestScreenDrawMatchesEmulator(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(42))
	iters := 40 // everyday; AGENTFMT_SLOW=1 draws 150 random runs
	if testenv.SlowEnabled() {
		iters = 150
	}
	for iter := 0; iter < iters; iter++ {
		width := 12 + rng.Intn(30)
		height := 6 + rng.Intn(6)
		tm := vtcheck.NewTerm(width, height)
		defer tm.Close()
		var out bytes.Buffer
		s := screen{out: &out, width: width}
		var want []string
		var live []row
		for step := 0; step < 40; step++ {
			var commit []row
			for n := rng.Intn(3); n > 0; n-- {
				commit = append(commit, randomRow(rng, width))
			}
			next := make([]row, 0, len(live)+2)
			for _, r := range live {
				switch rng.Intn(6) {
				case 0: // gone
				case 1, 2:
					next = append(next, grow(rng, r, width))
				case 3:
					next = append(next, randomRow(rng, width))
				default:
					next = append(next, r)
				}
			}
			for n := rng.Intn(3); n > 0 && len(next) < height-1; n-- {
				next = append(next, randomRow(rng, width))
			}
			if rng.Intn(10) == 0 {
				next = nil
			}
			live = next
			s.draw(commit, live)
			if err := s.flush(); err != nil {
				t.Fatal(err)
			}
			tm.Write(out.Bytes())
			out.Reset()
			for _, r := range commit {
				want = append(want, plainText(r))
			}
			exp := append(append([]string(nil), want...), nil...)
			for _, r := range live {
				exp = append(exp, plainText(r))
			}
			for len(exp) > 0 && exp[len(exp)-1] == "" {
				exp = exp[:len(exp)-1]
			}
			got := tm.All()
			if strings.Join(got, "\n") != strings.Join(exp, "\n") {
				t.Fatalf("iteration %d step %d (width %d): screen\n%s\nwant\n%s", iter, step, width,
					strings.Join(got, "|\n"), strings.Join(exp, "|\n"))
			}
		}
		tm.Close() // its process serves the next iteration (the deferred Close, a failure)
	}
}

// TestScreenResizeWider: after the terminal gets wider the region is
// erased and drawn anew, and nothing committed is lost.
func TestScreenResizeWider(t *testing.T) {
	t.Parallel()
	tm := vtcheck.NewTerm(30, 10)
	defer tm.Close()
	var out bytes.Buffer
	s := screen{out: &out, width: 30}
	s.draw([]row{{s: "committed one", w: 13}}, []row{{s: "live one", w: 8}, {s: "● 3s", w: 4}})
	_ = s.flush()
	tm.Write(out.Bytes())
	out.Reset()
	tm.Resize(50, 10)
	s.resize(50)
	s.draw([]row{{s: "committed two", w: 13}}, []row{{s: "live two is wider now", w: 21}})
	_ = s.flush()
	tm.Write(out.Bytes())
	got := strings.Join(tm.All(), "\n")
	want := "committed one\ncommitted two\nlive two is wider now"
	if got != want {
		t.Errorf("screen\n%s\nwant\n%s", got, want)
	}
}

// TestScreenResizeNarrowerCountsReflow: a narrower terminal that reflows
// makes two rows of a wide one; the erase must go up past both, row by
// row (never an erase to the end of the screen, which tmux turns into
// moving the screen to its scrollback when it starts at the top).
func TestScreenResizeNarrowerCountsReflow(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	s := screen{out: &out, width: 40}
	s.draw(nil, []row{{s: strings.Repeat("a", 30), w: 30}, {s: "b", w: 1}})
	s.moveTo(1, 1)
	out.Reset()
	s.buf = s.buf[:0]
	s.resize(20)
	_ = s.flush()
	// Row 0 (30 cells) becomes 2 rows at width 20: up 2 from row 1.
	if got, want := out.String(), "\r\x1b[2K\x1b[A\x1b[2K\x1b[A\x1b[2K"; got != want {
		t.Errorf("resize wrote %q, want %q", got, want)
	}
}

// TestScreenResizeNarrowerNoReflow: a terminal that cuts rows instead of
// re-wrapping them (Config.NoReflow) keeps each row one row: the erase
// goes up one row for it, not two, so it never reaches the rows above the
// region (which it would erase for good).
func TestScreenResizeNarrowerNoReflow(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	s := screen{out: &out, width: 40, noReflow: true}
	s.draw(nil, []row{{s: strings.Repeat("a", 30), w: 30}, {s: "b", w: 1}})
	s.moveTo(1, 1)
	out.Reset()
	s.buf = s.buf[:0]
	s.resize(20)
	_ = s.flush()
	if got, want := out.String(), "\r\x1b[2K\x1b[A\x1b[2K"; got != want {
		t.Errorf("resize wrote %q, want %q", got, want)
	}
}

func TestCommonPrefix(t *testing.T) {
	t.Parallel()
	cases := []struct{ a, b string }{
		{"hello", "hello world"},
		{"\x1b[1mab\x1b[22m", "\x1b[1mabc\x1b[22m"},
		{"ab\x1b[1m", "ab\x1b[36m"},
		{"cafe", "cafe\u0301"},
		{"x👨", "x👨\u200d👩"},
		{"日本", "日本語"},
		{"日", "旦"},
	}
	want := []string{"hello", "\x1b[1mab", "ab", "caf", "x", "日本", ""}
	for i, c := range cases {
		if got := c.b[:commonPrefix(c.a, c.b)]; got != want[i] {
			t.Errorf("commonPrefix(%q, %q) = %q, want %q", c.a, c.b, got, want[i])
		}
	}
}

func TestWrapStyled(t *testing.T) {
	t.Parallel()
	rows := wrapStyled(nil, "ab\x1b[1mcdef\x1b[22mgh", 3, "> ", "  ", 2, false)
	want := []row{{s: "> ab\x1b[1mc\x1b[0m", w: 5}, {s: "  \x1b[1mdef\x1b[0m", w: 5}, {s: "  gh", w: 4}}
	if len(rows) != len(want) {
		t.Fatalf("rows %v", rows)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, rows[i], want[i])
		}
	}
	if got := wrapStyled(nil, "日本語テキスト", 5, "", "", 0, true); got[0].s != "日本…" || got[0].w != 5 {
		t.Errorf("one-row cut = %+v", got)
	}
	if got := wrapStyled(nil, "日本語", 5, "", "", 0, false); len(got) != 2 || got[0].w != 4 {
		t.Errorf("a wide glyph that does not fit goes to the next row: %+v", got)
	}
}

func TestSGRState(t *testing.T) {
	t.Parallel()
	var s sgrState
	for _, seq := range []string{"\x1b[1;2m", "\x1b[38;5;208m", "\x1b[22m", "\x1b[4m", "\x1b[48;2;1;2;3m"} {
		s.Apply(seq)
	}
	if got := s.Open(); got != "\x1b[4;38;5;208;48;2;1;2;3m" {
		t.Errorf("open = %q", got)
	}
	s.Apply("\x1b[m")
	if !s.Zero() {
		t.Error("reset did not clear")
	}
}
