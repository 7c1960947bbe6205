package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestPrettyRowsFitWordsWhole: at widths 37, 40 and 100, no row pretty
// draws is wider than the terminal (measured again, cell by cell: no row
// relies on soft wrapping) and, through a terminal emulator, no word is
// split across rows — answers in every markdown
// construct, CJK mixed with Latin, tool previews and diffs, the header.
func TestPrettyRowsFitWordsWhole(t *testing.T) {
	t.Parallel()
	fixtures := append([]prettyFixture{}, issue12Fixtures...)
	for _, f := range prettyFixtures {
		switch f.name {
		case "01-text-markdown", "02-parallel-tools", "06-long-lines", "07-wide-chars", "05-subagent":
			fixtures = append(fixtures, f)
		}
	}
	fixtures = append(fixtures, prettyFixture{name: "answer100K", run: func(d *driver) {
		d.every = 40
		d.streamChunks(streaming.KindTextDelta, "m1", "", answer100K()[:20000], 7)
		d.push(streaming.Event{Kind: streaming.KindResult, OK: true})
	}})
	for _, f := range fixtures {
		for _, width := range []int{37, 40, 100} {
			t.Run(fmt.Sprintf("%s-w%d", f.name, width), func(t *testing.T) {
				t.Parallel()
				f := f
				f.cfg.Width = width
				// Every row the screen writer draws, measured again.
				widest := 0
				f.cfg.drawHook = func(_ int, commit, live []row) {
					for _, rs := range [][]row{commit, live} {
						for _, rw := range rs {
							widest = max(widest, rw.w, cells(rw.s))
						}
					}
				}
				d, out, _ := f.render(t)
				if widest > width {
					t.Errorf("a row is %d cells wide on a terminal of %d", widest, width)
				}
				rows := vtcheck.Screen(out, width)
				if err := vtcheck.WordsWhole(rows, d.assistantTexts(), width); err != nil {
					t.Errorf("%v:\n%s", err, strings.Join(rows, "\n"))
				}
			})
		}
	}
}
