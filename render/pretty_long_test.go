package render

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/streaming"
)

// longAnswer is size bytes of markdown (answer100K repeated), or, with
// oneLine, of words with no newline at all.
func longAnswer(size int, oneLine bool) string {
	if oneLine {
		return strings.Repeat("ledger compaction caller generation ", size/36+1)[:size]
	}
	a := answer100K()
	return strings.Repeat(a, size/len(a)+1)[:size]
}

// streamLong sends text to a pretty renderer in deltas of 8 KiB with a
// frame after each, as a fast agent's answer arrives.
func streamLong(tb testing.TB, text string) {
	tick := make(chan time.Time, 1)
	now := epoch
	r, _ := New("pretty", io.Discard, Config{Width: 100, Height: 40, Color: true, env: renderenv.Env{Tick: tick, Now: func() time.Time { return now }}})
	p := r.(*prettyRenderer)
	ev := streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Role: streaming.RoleAssistant}
	for i := 0; i < len(text); i += 8 << 10 {
		ev.Text = text[i:min(i+8<<10, len(text))]
		if err := p.Handle(&ev); err != nil {
			tb.Fatal(err)
		}
		now = now.Add(40 * time.Millisecond)
		tick <- now
		if err := p.Flush(); err != nil {
			tb.Fatal(err)
		}
	}
	if err := p.Finish(Summary{}); err != nil {
		tb.Fatal(err)
	}
}

// TestPrettyLongAnswerLinear: one answer four times as long costs about
// four times as much (bytes allocated, a measure of the work that does
// not depend on the machine's load), for markdown and for one line with
// no newline.
func TestPrettyLongAnswerLinear(t *testing.T) {
	testenv.Slow(t) // renders 10 MB
	for _, oneLine := range []bool{false, true} {
		alloc := func(size int) uint64 {
			text := longAnswer(size, oneLine)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			streamLong(t, text)
			runtime.ReadMemStats(&after)
			return after.TotalAlloc - before.TotalAlloc
		}
		small, big := alloc(1<<20), alloc(4<<20)
		ratio := float64(big) / float64(small)
		t.Logf("one line %v: 1 MiB %d MB allocated, 4 MiB %d MB: ×%.2f", oneLine, small>>20, big>>20, ratio)
		if ratio > 5 {
			t.Errorf("one line %v: 4 MiB costs ×%.2f of 1 MiB, want about 4", oneLine, ratio)
		}
	}
}

// BenchmarkPrettyLongAnswer: a 1 MiB and a 4 MiB answer in 8 KiB deltas;
// the second takes about four times the first.
func BenchmarkPrettyLongAnswer(b *testing.B) {
	for _, c := range []struct {
		name    string
		size    int
		oneLine bool
	}{{"1MiB", 1 << 20, false}, {"4MiB", 4 << 20, false}, {"1MiB-one-line", 1 << 20, true}, {"4MiB-one-line", 4 << 20, true}} {
		text := longAnswer(c.size, c.oneLine)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				streamLong(b, text)
			}
		})
	}
}
