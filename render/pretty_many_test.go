package render

import (
	"io"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/streaming"
)

// openTools starts n tool calls through a session, with a frame every 50
// events, then ends them all. live, when set, is called while all n are
// open.
func openTools(tb testing.TB, n int, live func()) {
	tick := make(chan time.Time, 1)
	now := epoch
	r, _ := New("pretty", io.Discard, Config{Width: 100, Height: 40, Color: true, env: renderenv.Env{Tick: tick, Now: func() time.Time { return now }}})
	p := r.(*prettyRenderer)
	s := streaming.NewSession(p, streaming.Options{})
	frame := func(i int) {
		if i%50 == 0 {
			now = now.Add(10 * time.Millisecond)
			tick <- now
			if err := p.Flush(); err != nil {
				tb.Fatal(err)
			}
		}
	}
	ev := streaming.Event{Kind: streaming.KindToolStart, Name: "Bash", Subject: "sleep 600", Input: `{"command":"sleep 600"}`}
	for i := 0; i < n; i++ {
		ev.ID = "t" + strconv.Itoa(i)
		if err := s.Push(&ev); err != nil {
			tb.Fatal(err)
		}
		frame(i)
	}
	if live != nil {
		live()
	}
	end := streaming.Event{Kind: streaming.KindToolEnd, Status: streaming.ToolOK, Output: "done\n"}
	for i := 0; i < n; i++ {
		end.ID = "t" + strconv.Itoa(i)
		if err := s.Push(&end); err != nil {
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
// open calls cost about four times what 20,000 do, in bytes allocated (it
// was quadratic: every frame laid out every open call) and in the memory
// they hold while open (the session's calls and pretty's items: each
// running call costs a few hundred bytes, so that 80,000 stay well under
// the collector's soft limit, near which every collection marks them all
// again; they cost 8-9 times the CPU of 20,000 when a call held 716, now 391).
func TestPrettyManyOpenToolsLinear(t *testing.T) {
	testenv.Slow(t)
	measure := func(n int) (alloc, live uint64) {
		var before, open, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		openTools(t, n, func() {
			runtime.GC()
			runtime.ReadMemStats(&open)
		})
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, open.HeapAlloc - before.HeapAlloc
	}
	smallA, smallL := measure(20_000)
	bigA, bigL := measure(80_000)
	t.Logf("20k open calls: %d MB allocated, %d bytes held per call; 80k: %d MB, %d bytes per call",
		smallA>>20, smallL/20_000, bigA>>20, bigL/80_000)
	if ratio := float64(bigA) / float64(smallA); ratio > 4.5 {
		t.Errorf("80k open calls allocate ×%.2f of 20k, want about 4", ratio)
	}
	if ratio := float64(bigL) / float64(smallL); ratio > 4.5 {
		t.Errorf("80k open calls hold ×%.2f the memory of 20k, want about 4", ratio)
	}
	if per := bigL / 80_000; per > 448 {
		t.Errorf("an open call holds %d bytes, want at most 448", per)
	}
}

func BenchmarkPrettyOpenTools(b *testing.B) {
	for _, n := range []int{20_000, 80_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				openTools(b, n, nil)
			}
		})
	}
}
