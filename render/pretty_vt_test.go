package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/render/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestPrettyRowsFitWordsWhole: through a terminal emulator, at widths 37,
// 40 and 100, no row of pretty's output is wider than the terminal (an
// emulator far wider shows nothing past it: no row relies on soft
// wrapping) and no word is split across rows — answers in every markdown
// construct, CJK mixed with Latin, tool previews and diffs, the header.
func TestPrettyRowsFitWordsWhole(t *testing.T) {
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
				f := f
				f.cfg.Width = width
				d, out, _ := f.render(t)
				if w := vtcheck.MaxWidth(out); w > width {
					t.Errorf("a row is %d cells wide on a terminal of %d", w, width)
				}
				rows := vtcheck.Screen(out, width)
				if err := vtcheck.WordsWhole(rows, d.assistantTexts(), width); err != nil {
					t.Errorf("%v:\n%s", err, strings.Join(rows, "\n"))
				}
			})
		}
	}
}
