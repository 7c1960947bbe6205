package cmd

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/gen"
	"github.com/agentfmt/agentfmt/internal/testenv"
)

// pageLogSize is the size of the generated log TestMemoryPage and
// BenchmarkPage20MB render as a page: a long agent log.
const pageLogSize = 20 << 20

// mixedLog writes a generated log of size bytes (Claude, Codex and Gemini
// runs in turn) to a file: the input is read from there, so that it is not
// in the heap that is measured.
func mixedLog(t testing.TB, size int64, seed uint64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mixed.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := gen.Mixed(w, size, seed); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
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

// renderPageSampled renders a log with -o html, sampling the live heap.
func renderPageSampled(t testing.TB, path string) (*heapSampler, *countWriter, time.Duration) {
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		t.Fatal(err)
	}
	h := &heapSampler{src: in, step: st.Size() / 32}
	out := &countWriter{h: h}
	env := &Env{Stdin: h, Stdout: out, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	start := time.Now()
	if code := Run([]string{"-o", "html"}, env); code != ExitOK && code != ExitFailed && code != ExitIncomplete {
		t.Fatalf("exit %d", code)
	}
	return h, out, time.Since(start)
}

// TestMemoryPage renders a 20 MB generated log as a page (-o html): the
// live heap stays small and does not grow with the stream, and the page
// is written as the input is read (its first bytes, a buffer of 64 KiB,
// leave before a tenth of the input is read).
func TestMemoryPage(t *testing.T) {
	testenv.Slow(t)
	if testenv.Race {
		t.Skip("renders 20 MB (skipped with -race; .ci/run runs it without)")
	}
	path := mixedLog(t, pageLogSize, 3)
	base := liveHeap() // what the package's other tests left live is not the run's
	h, out, took := renderPageSampled(t, path)
	size := h.read
	if len(h.samples) < 8 {
		t.Fatalf("only %d samples", len(h.samples))
	}
	warm, peak := h.warmPeak()
	t.Logf("page %s for %s of input in %s; live heap %s before, %s after a quarter, peak %s; first bytes out after %s of input",
		mib(uint64(out.n)), mib(uint64(size)), took.Round(time.Millisecond), mib(base), mib(warm), mib(peak), mib(uint64(out.early)))
	const bound = 16 << 20
	if peak > base+bound {
		t.Errorf("live heap reached %s, %s over the %s before the run (bound %s)", mib(peak), mib(peak-base), mib(base), mib(bound))
	}
	if peak > warm+2<<20 {
		t.Errorf("live heap grew from %s to %s over the stream", mib(warm), mib(peak))
	}
	if out.early > size/10 {
		t.Errorf("the page's first bytes came out after %s of %s of input: not streamed", mib(uint64(out.early)), mib(uint64(size)))
	}
}

// BenchmarkPage20MB renders a 20 MB generated log as a page and reports
// the peak live heap (go test ./cmd -run '^$' -bench Page20MB -benchtime 3x).
func BenchmarkPage20MB(b *testing.B) {
	path := mixedLog(b, pageLogSize, 3)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	var peak uint64
	for b.Loop() {
		h, _, _ := renderPageSampled(b, path)
		for _, s := range h.samples {
			peak = max(peak, s)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
}
