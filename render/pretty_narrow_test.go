package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestPrettyNarrowWidths: on a terminal of 1 to 10 columns, no row pretty
// draws is wider than the terminal (measured again, cell by cell), what it
// writes is only the sequences it may, and a terminal emulator of that
// width ends up holding the rows drawn, one screen row each (a row wider
// than the terminal would wrap and throw the live region's redraws off).
// The everyday run tries two of the widths per fixture (testenv.Slow: all).
func TestPrettyNarrowWidths(t *testing.T) {
	t.Parallel()
	fixtures := append([]prettyFixture{}, issue12Fixtures...)
	fixtures = append(fixtures, prettyFixtures...)
	fixtures = append(fixtures, prettyFixture{name: "deep", run: func(d *driver) {
		d.streamChunks(streaming.KindTextDelta, "m1", "", "> > > > - a\n>\n> - b\n\n```go\nfunc x() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", 5)
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}})
	for i, f := range fixtures {
		// Every width for every fixture in the slow run; each fixture at
		// width 1 and at one other, turn by turn, every day.
		widths := []int{1, 2 + i%9}
		if testenv.SlowEnabled() {
			widths = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
		}
		for _, width := range widths {
			t.Run(fmt.Sprintf("%s-w%d", f.name, width), func(t *testing.T) {
				t.Parallel()
				f := f
				f.cfg.Width = width
				widest, at := 0, ""
				var drawn, last []string // rows committed, the live region last drawn
				f.cfg.drawHook = func(_ int, commit, live []row) {
					for _, rs := range [][]row{commit, live} {
						for _, rw := range rs {
							if w := max(rw.w, cells(rw.s)); w > widest {
								widest, at = w, rw.s
							}
						}
					}
					for _, rw := range commit {
						drawn = append(drawn, strings.TrimRight(termwrap.Strip(rw.s), " "))
					}
					last = last[:0]
					for _, rw := range live {
						last = append(last, strings.TrimRight(termwrap.Strip(rw.s), " "))
					}
				}
				_, out, _ := f.render(t)
				if widest > width {
					t.Errorf("a row is %d cells wide on a terminal of %d: %q", widest, width, at)
				}
				if err := vtcheck.Sequences(out); err != nil {
					t.Error(err)
				}
				// Through a terminal emulator of that width: the rows drawn,
				// each on one row of the screen (none wrapped), in order.
				want := append(drawn, last...)
				for len(want) > 0 && want[len(want)-1] == "" {
					want = want[:len(want)-1]
				}
				if got := vtcheck.Screen(out, width); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("the screen holds %d rows, %d were drawn:\n%s\n---\n%s", len(got), len(want), strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
		}
	}
}
