package html_test

import (
	stdhtml "html"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// longAnswer is one assistant text block of n bytes in many deltas, in
// paragraphs with a code block now and then.
func longAnswer(n int) []streaming.Event {
	evs := []streaming.Event{{Kind: streaming.KindMessageStart, Message: "a", Role: streaming.RoleAssistant}}
	para := strings.Repeat("The ledger compaction keeps **every** line of `input` once. ", 12) + "\n\n"
	code := "```go\n" + strings.Repeat("x := compact(ledger) // keep\n", 20) + "```\n\n"
	for size, i := 0, 0; size < n; i++ {
		s := para
		if i%7 == 0 {
			s = code
		}
		evs = append(evs, streaming.Event{Kind: streaming.KindTextDelta, Message: "a", Role: streaming.RoleAssistant, Text: s})
		size += len(s)
	}
	return append(evs, streaming.Event{Kind: streaming.KindMessageStop, Message: "a", Role: streaming.RoleAssistant})
}

// allocsPerByte renders events and returns the bytes allocated per byte
// of text.
func allocsPerByte(t *testing.T, evs []streaming.Event) float64 {
	r, err := render.New("html", io.Discard, render.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var text int
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range evs {
		text += len(evs[i].Text)
		if err := r.Handle(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	_ = r.Finish(render.Summary{Outcome: streaming.Success})
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(text)
}

// TestLongAnswerLinear: one answer of megabytes is rendered in pieces as
// it grows, so the work per byte does not grow with its length (markdown
// rendering of the whole block at its end would hold it all, and
// re-scanning it at each delta would be quadratic).
func TestLongAnswerLinear(t *testing.T) {
	testenv.Slow(t) // renders 4 MiB
	if testenv.Race {
		t.Skip("allocation counts differ under -race (.ci/run runs it without)")
	}
	small, large := allocsPerByte(t, longAnswer(256<<10)), allocsPerByte(t, longAnswer(4<<20))
	t.Logf("bytes allocated per byte of text: %.1f for 256 KiB, %.1f for 4 MiB", small, large)
	if large > 2*small+5 {
		t.Errorf("allocation per byte grows with the answer: %.1f for 256 KiB, %.1f for 4 MiB", small, large)
	}
}

// TestLongAnswerWhole: the pieces of a long answer hold all of its text,
// each code block whole. (A MiB of it; a third of that under the race
// detector, where nothing here runs concurrently.)
func TestLongAnswerWhole(t *testing.T) {
	t.Parallel()
	size := 1 << 20
	if testenv.Race {
		size = 320 << 10
	}
	evs := longAnswer(size)
	p := eventsPage(t, evs)
	var want strings.Builder
	for _, ev := range evs {
		want.WriteString(ev.Text)
	}
	// Every code line is in the page, and every code block is a
	// highlighted block. (Which class each token gets is not checked:
	// chroma gives up on a token after 250 ms, which a loaded machine
	// under -race can reach.)
	text := stdhtml.UnescapeString(stripTags(p, ""))
	if got, exp := strings.Count(text, "x := compact(ledger) // keep"), strings.Count(want.String(), "x := compact(ledger) // keep"); got != exp {
		t.Errorf("%d code lines in the page, want %d", got, exp)
	}
	if got, exp := strings.Count(p, `<pre class="chroma">`), strings.Count(want.String(), "```go"); got != exp {
		t.Errorf("%d highlighted code blocks, want %d", got, exp)
	}
	if got, exp := strings.Count(p, "<strong>every</strong>"), strings.Count(want.String(), "**every**"); got != exp {
		t.Errorf("%d paragraphs, want %d", got, exp)
	}
	if n := strings.Count(p, `class="item answer"`); n < size/(100<<10) {
		t.Errorf("an answer of %d KiB in %d pieces: not rendered as it grows", size>>10, n)
	}
}
