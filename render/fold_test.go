package render

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/testenv"
)

func TestPromptFold(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, eventtext.PromptHead, eventtext.PromptHead + 1, 20, 20 + 1, 30, 100} {
		f := newPromptFold(20)
		var shown []string
		for i := 1; i <= n; i++ {
			if l := fmt.Sprint(i); f.add(l, 1) {
				shown = append(shown, l)
			}
		}
		omitted, rest := f.end()
		var want []string
		wantOmitted := 0
		for i := 1; i <= n; i++ {
			want = append(want, fmt.Sprint(i))
		}
		if n > 20 {
			wantOmitted = n - eventtext.PromptHead - eventtext.PromptTail
			want = append(want[:eventtext.PromptHead:eventtext.PromptHead], want[n-eventtext.PromptTail:]...)
		}
		got := append(shown, rest...)
		if omitted != wantOmitted || !reflect.DeepEqual(got, want) {
			t.Errorf("%d lines: shown %v, omitted %d, rest %v; want %v, %d left out", n, shown, omitted, rest, want, wantOmitted)
		}
	}
}

// promptRows answers from cellBounds without measuring most lines: the
// answer is the measured one, and the bounds hold, on every line of up to
// three pieces and on long random lines of pieces that a terminal draws
// differently (controls, an escape, tabs, Latin-1 and its soft hyphen, ©
// and ® after a zero-width joiner, combining marks, wide CJK, emoji
// sequences, regional indicators, Hangul jamo, a prepended mark, bytes
// that are not UTF-8).
func TestPromptRowsBounds(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "word ", "  ", "\x01", "\x7f", "\x1b[31m", "\t", "é", "ß", "\u00ad", "\u0085",
		"©", "®", "\u0301", "e\u0301", "—", "→", "中文", "👍", "👨\u200d©", "\u200d©", "\u200d®", "👨\u200d👩\u200d👧",
		"1\ufe0f\u20e3", "\u2764\ufe0f", "🇫🇷", "\u1100\u1161", "\u0600a", "\xff", "\xe2\x80"}
	check := func(line string) {
		c := cells(expandTabs(line))
		if lo, hi, ok := cellBounds(line); ok && (lo > c || hi < c) {
			t.Fatalf("%q: %d cells, outside the bounds %d to %d", line, c, lo, hi)
		}
		for _, avail := range []int{8, 13, 40, 98} {
			if got, want := promptRows(line, avail), rowsOf(c, avail); got != want {
				t.Fatalf("%q in %d cells: %d rows, want %d (%d cells)", line, avail, got, want, c)
			}
		}
	}
	for _, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces {
				check(a + b + c)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := 5000
	if !testenv.SlowEnabled() {
		random = 1000 // every day the first 1000 of the slow run's lines
	}
	for range random {
		var b strings.Builder
		for n := rng.IntN(80); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		check(b.String())
	}
}
