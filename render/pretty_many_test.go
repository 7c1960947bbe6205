package render

import (
	"io"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/streaming"
)

// openTools starts n tool calls, with a frame every 50 events, then ends
// them all.
func openTools(tb testing.TB, n int) {
	tick := make(chan time.Time, 1)
	now := epoch
	r, _ := New("pretty", io.Discard, Config{Width: 100, Height: 40, Palette: NewPalette(true), Tick: tick,
		Now: func() time.Time { return now }})
	p := r.(*Pretty)
	frame := func(i int) {
		if i%50 == 0 {
			now = now.Add(10 * time.Millisecond)
			tick <- now
			if err := p.Flush(); err != nil {
				tb.Fatal(err)
			}
		}
	}
	ev := streaming.Event{Kind: streaming.KindToolStart, Name: "Bash", Subject: "sleep 600"}
	for i := 0; i < n; i++ {
		ev.ID = "t" + strconv.Itoa(i)
		if err := p.Handle(&ev); err != nil {
			tb.Fatal(err)
		}
		frame(i)
	}
	end := streaming.Event{Kind: streaming.KindToolEnd, Status: streaming.ToolOK, Output: "done\n"}
	for i := 0; i < n; i++ {
		end.ID = "t" + strconv.Itoa(i)
		if err := p.Handle(&end); err != nil {
			tb.Fatal(err)
		}
		frame(i)
	}
	if err := p.Finish(Summary{}); err != nil {
		tb.Fatal(err)
	}
}

// TestPrettyManyOpenToolsLinear: the live region is drawn from a bounded
// set (the running calls that fit, and a count of the rest), so 80,000
// open calls cost about four times what 20,000 do (bytes allocated; it
// was quadratic: every frame laid out every open call).
func TestPrettyManyOpenToolsLinear(t *testing.T) {
	testenv.Slow(t) // 100,000 open calls
	alloc := func(n int) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		openTools(t, n)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, big := alloc(20_000), alloc(80_000)
	ratio := float64(big) / float64(small)
	t.Logf("20k open calls: %d MB allocated, 80k: %d MB (×%.2f)", small>>20, big>>20, ratio)
	if ratio > 5.5 {
		t.Errorf("80k open calls cost ×%.2f of 20k, want about 4", ratio)
	}
}

func BenchmarkPrettyOpenTools(b *testing.B) {
	for _, n := range []int{20_000, 80_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				openTools(b, n)
			}
		})
	}
}
