package render

import (
	"bytes"
	"io"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// answer100K is about 100 KB of markdown-like assistant text: prose lines
// of every length (many wider than the terminal), headings, lists, inline
// code and code blocks.
func answer100K() string {
	rng := rand.New(rand.NewSource(1))
	words := strings.Fields("the test races because Add appends from several goroutines without a lock and money " +
		"is summed as float64 so totals drift by a cent now and then; store cents as int64 **guarded** by a mutex " +
		"and make the test wait on a `sync.WaitGroup` instead of sleeping — 日本語 café 🎉")
	var b strings.Builder
	for b.Len() < 100_000 {
		switch rng.Intn(10) {
		case 0:
			b.WriteString("## Section " + words[rng.Intn(len(words))] + "\n\n")
		case 1:
			b.WriteString("```go\nfunc (c *Cart) Add(p int64) {\n\tc.mu.Lock()\n\tc.items = append(c.items, p)\n\tc.mu.Unlock()\n}\n```\n")
		default:
			n := 3 + rng.Intn(60)
			if rng.Intn(3) == 0 {
				b.WriteString("- ")
			}
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(words[rng.Intn(len(words))])
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// streamAnswer sends text to a pretty renderer as one-character deltas,
// with a redraw tick every `every` deltas, and returns the output.
func streamAnswer(tb testing.TB, text string, every int, colour bool, out io.Writer) *prettyRenderer {
	tick := make(chan time.Time, 1)
	now := epoch
	r, _ := New("pretty", out, Config{Width: 80, Height: 24, Color: colour, env: renderenv.Env{Tick: tick, Now: func() time.Time { return now }}})
	p := r.(*prettyRenderer)
	ev := streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Role: streaming.RoleAssistant}
	n := 0
	for i, c := range text {
		ev.Text = text[i : i+len(string(c))]
		if err := p.Handle(&ev); err != nil {
			tb.Fatal(err)
		}
		n++
		if n%every == 0 {
			now = now.Add(time.Duration(every) * 10 * time.Millisecond) // ~100 chars/s
			select {
			case tick <- now:
			default:
			}
		}
	}
	res := streaming.Event{Kind: streaming.KindResult, OK: true}
	if err := p.Handle(&res); err != nil {
		tb.Fatal(err)
	}
	if err := p.Finish(Summary{}); err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestPrettyBytesPerAnswerByte: a redraw writes only what changed, and a
// block of text leaves the live region once it fills it, so the bytes
// written stay within 4.5 per byte of answer however often the region is
// redrawn (the partial line is shown as it comes, then once more when its
// block is rendered as markdown, whose styles add bytes; a row that gets
// shorter, as when a word wraps to the next row, is erased whole and
// written again, so that a terminal that reflows on a resize knows its
// true width: that was 3.5 before), and the end of the text reaches the
// screen.
func TestPrettyBytesPerAnswerByte(t *testing.T) {
	t.Parallel()
	text := answer100K()
	if !testenv.SlowEnabled() {
		// Everyday: the first 30 KB or so, cut before a heading (never
		// inside a code block); AGENTFMT_SLOW=1 streams all 100 KB.
		text = text[:30_000+strings.Index(text[30_000:], "## Section")]
	}
	for _, every := range []int{1, 4, 16} {
		for _, colour := range []bool{false, true} {
			if !testenv.SlowEnabled() && (every != 16 || !colour) {
				continue // everyday: one of the six (each streams 100 KB through the renderer)
			}
			var out bytes.Buffer
			p := streamAnswer(t, text, every, colour, &out)
			frames, writes, written := p.Stats()
			ratio := float64(written) / float64(len(text))
			t.Logf("tick every %2d deltas, colour %-5v: %d frames (%d wrote), %.3f bytes written per answer byte",
				every, colour, frames, writes, ratio)
			if ratio > 4.5 {
				t.Errorf("tick every %d, colour %v: %.2f bytes written per answer byte, want ≤ 4.5", every, colour, ratio)
			}
			if int64(out.Len()) != written {
				t.Errorf("Stats says %d bytes, %d written", written, out.Len())
			}
			if every == 16 {
				rows := vtcheck.Screen(out.Bytes(), 80)
				lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
				last := lines[len(lines)-1]
				if vtcheck.Count(rows[len(rows)-6:], last) == 0 {
					t.Errorf("the end of the text %q is not on the screen:\n%s", last, strings.Join(rows[len(rows)-6:], "\n"))
				}
				// (A fence line is markup: with colour the code shows without
				// it, and its language on no row of its own.)
				shown := lines[:0:0]
				for _, l := range lines {
					if !strings.HasPrefix(l, "```") {
						shown = append(shown, l)
					}
				}
				if err := linesInOrder(rows, shown); err != nil {
					t.Error(err)
				}
			}
		}
	}
}

// BenchmarkPrettyStream streams a 100 KB answer as one-character deltas
// with a frame every 16 deltas (about 30 frames a second at 500
// characters a second) and reports bytes written per byte of answer and
// frames per answer.
func BenchmarkPrettyStream(b *testing.B) {
	text := answer100K()
	for _, c := range []struct {
		name   string
		every  int
		colour bool
	}{{"tick16", 16, true}, {"tick1", 1, true}, {"tick16-nocolour", 16, false}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			var frames, written int64
			for i := 0; i < b.N; i++ {
				p := streamAnswer(b, text, c.every, c.colour, io.Discard)
				f, _, w := p.Stats()
				frames += int64(f)
				written += w
			}
			b.ReportMetric(float64(written)/float64(int64(b.N)*int64(len(text))), "B/answerB")
			b.ReportMetric(float64(frames)/float64(b.N), "redraws/op")
		})
	}
}

// BenchmarkPrettyHandleDelta is the cost of Handle for one one-character
// delta, with no frame drawn.
func BenchmarkPrettyHandleDelta(b *testing.B) {
	tick := make(chan time.Time)
	r, _ := New("pretty", io.Discard, Config{Width: 80, Color: true, env: renderenv.Env{Tick: tick}})
	p := r.(*prettyRenderer)
	ev := streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Text: "x"}
	_ = p.Handle(&ev)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.Handle(&ev)
		if i%4096 == 0 {
			p.cur.pend = p.cur.pend[:0]
		}
	}
}
