package render

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/renderenv"
)

// BenchmarkViewStreams feeds the same input, split among 1, 10 or 50
// streams (a fixture's run repeated), a line of each stream in turn, into
// a view, each stream through its own decoder and session as the command
// does, each stream flushed every 32 of its lines; a frame (pretty) comes
// every 32 lines of each stream: streams that each receive at the same
// rate, drawn at a fixed frame rate (each frame lays out every stream
// that changed since the last). The
// view's cost is linear in what it receives when MB/s stays the same
// whatever the number of streams, and when twice the input (runs=2000)
// takes twice the time.
func BenchmarkViewStreams(b *testing.B) {
	log := readFixture(b, laneLogs[0]) + readFixture(b, laneLogs[1])
	for _, format := range []string{"plain", "json", "pretty"} {
		for _, c := range []struct{ streams, runs int }{{1, 1000}, {10, 1000}, {50, 1000}, {50, 2000}} {
			data := strings.Repeat(log, c.runs/c.streams)
			b.Run(fmt.Sprintf("%s/streams=%d/runs=%d", format, c.streams, c.runs), func(b *testing.B) {
				b.SetBytes(int64(len(data) * c.streams))
				b.ReportAllocs()
				for range b.N {
					tick := make(chan time.Time, 1)
					v, err := NewView(format, io.Discard, Config{Width: 100, Height: 40, env: renderenv.Env{Now: fixedNow, Tick: tick}})
					if err != nil {
						b.Fatal(err)
					}
					var ss []*stream
					for i := range c.streams {
						ss = append(ss, newStream(b, v.Lane(Lane{Tag: fmt.Sprintf("s%d", i)}), data))
					}
					lines := 0
					for n, left := 0, len(ss); left > 0; n++ {
						left = 0
						for _, s := range ss {
							if s.done {
								continue
							}
							left++
							s.step(b)
							if lines++; lines%(32*c.streams) == 0 {
								select {
								case tick <- time.Time{}:
								default:
								}
							}
							if n%32 == 31 && !s.done {
								s.r.Flush()
							}
						}
					}
					if err := v.Finish(false); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
