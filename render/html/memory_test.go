package html_test

import (
	"bufio"
	"fmt"
	stdhtml "html"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/cmd"
	"github.com/agentfmt/agentfmt/internal/gen"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// logSize is the size of the generated log the memory test and the
// benchmark render: the "20 MB log".
const logSize = 20 << 20

// heapSampler reads src and, every step bytes, collects garbage and notes
// the live heap.
type heapSampler struct {
	src              io.Reader
	step, read, next int64
	samples          []uint64
}

func (h *heapSampler) Read(p []byte) (int, error) {
	n, err := h.src.Read(p)
	h.read += int64(n)
	if h.read >= h.next {
		h.next += h.step
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		h.samples = append(h.samples, ms.HeapAlloc)
	}
	return n, err
}

// countWriter counts what the page is: its size, and that it is written
// as the input is read (bytes out before the input's end).
type countWriter struct {
	n     int64
	early int64 // the input read when the first bytes came out
	h     *heapSampler
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.n == 0 && c.h != nil {
		c.early = c.h.read
	}
	c.n += int64(len(p))
	return len(p), nil
}

// mixedLog writes a generated log of logSize to a file: the input is
// read from there, so that it is not in the heap that is measured.
func mixedLog(t testing.TB) string {
	path := filepath.Join(t.TempDir(), "mixed.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := gen.Mixed(w, logSize, 3); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

func mib(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// renderSampled renders a log as a page, sampling the live heap.
func renderSampled(t testing.TB, path string) (*heapSampler, *countWriter, time.Duration) {
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	st, _ := in.Stat()
	h := &heapSampler{src: in, step: st.Size() / 32}
	out := &countWriter{h: h}
	env := &cmd.Env{Stdin: h, Stdout: out, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	start := time.Now()
	if code := cmd.Run([]string{"-o", "html"}, env); code != cmd.ExitOK && code != cmd.ExitFailed && code != cmd.ExitIncomplete {
		t.Fatalf("exit %d", code)
	}
	return h, out, time.Since(start)
}

// TestMemoryBounded renders a 20 MB generated log (Claude, Codex and
// Gemini runs in turn) as a page: the live heap stays small and does not
// grow with the stream, and the page is written as the input is read
// (its first bytes, a buffer of 64 KiB, leave before a tenth of the
// input is read).
func TestMemoryBounded(t *testing.T) {
	t.Parallel()
	testenv.Slow(t)
	if testenv.Race {
		t.Skip("renders 20 MB (skipped with -race; .ci/run runs it without)")
	}
	path := mixedLog(t)
	h, out, took := renderSampled(t, path)
	size := h.read
	if len(h.samples) < 8 {
		t.Fatalf("only %d samples", len(h.samples))
	}
	warm := h.samples[len(h.samples)/4]
	var peak uint64
	for _, s := range h.samples[len(h.samples)/4:] {
		peak = max(peak, s)
	}
	t.Logf("page %s for %s of input in %s; live heap %s after a quarter, peak %s; first bytes out after %s of input",
		mib(uint64(out.n)), mib(uint64(size)), took.Round(time.Millisecond), mib(warm), mib(peak), mib(uint64(out.early)))
	const bound = 16 << 20
	if peak > bound {
		t.Errorf("live heap reached %s (bound %s)", mib(peak), mib(bound))
	}
	if peak > warm+2<<20 {
		t.Errorf("live heap grew from %s to %s over the stream", mib(warm), mib(peak))
	}
	if out.early > size/10 {
		t.Errorf("the page's first bytes came out after %s of %s of input: not streamed", mib(uint64(out.early)), mib(uint64(size)))
	}
}

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

// BenchmarkPage20MB renders a 20 MB generated log as a page and reports
// the peak live heap (go test ./render/html -bench Page -benchtime 3x).
func BenchmarkPage20MB(b *testing.B) {
	path := mixedLog(b)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	var peak uint64
	for b.Loop() {
		h, _, _ := renderSampled(b, path)
		for _, s := range h.samples {
			peak = max(peak, s)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
}
