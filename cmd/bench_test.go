package cmd

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/agentfmt/agentfmt/internal/gen"
	"github.com/agentfmt/agentfmt/render"
)

// benchSize is the size of the generated stream the pipeline benchmarks
// render: large enough that setup and the summary are noise.
const benchSize = 32 << 20

var (
	mixedOnce sync.Once
	mixedData []byte

	claudeOnce sync.Once
	claudeData []byte
)

// mixedStream is a Mixed stream (Claude, Codex and Gemini runs in turn),
// built once per test binary.
func mixedStream(b *testing.B) []byte {
	mixedOnce.Do(func() {
		var buf bytes.Buffer
		buf.Grow(benchSize + 1<<20)
		if err := gen.Mixed(&buf, benchSize, 1); err != nil {
			b.Fatal(err)
		}
		mixedData = buf.Bytes()
	})
	return mixedData
}

// claudeCorpusStream is the Claude captures of ../shared/corpus repeated
// to benchSize (what bench/compare times against jq), or nil without the
// corpus.
func claudeCorpusStream(b *testing.B) []byte {
	claudeOnce.Do(func() {
		dir := filepath.Join("..", "..", "shared", "corpus", "claude")
		if _, err := os.Stat(dir); err != nil {
			return
		}
		var buf bytes.Buffer
		buf.Grow(benchSize + 1<<20)
		if err := gen.Corpus(&buf, dir, benchSize); err != nil {
			b.Fatal(err)
		}
		claudeData = buf.Bytes()
	})
	return claudeData
}

// runPipeline renders data in-process with the given arguments, output
// discarded.
func runPipeline(b *testing.B, data []byte, args ...string) {
	env := &Env{
		Stdin:  bytes.NewReader(data),
		Stdout: io.Discard,
		Stderr: io.Discard,
		Getenv: func(string) string { return "" },
	}
	if code := Run(args, env); code != ExitOK && code != ExitFailed && code != ExitIncomplete {
		b.Fatalf("exit %d", code)
	}
}

// BenchmarkPipeline is the throughput of the whole command (reader,
// decoder, parsers, session, renderer) per output format on a generated
// Mixed stream; allocs/op divided by events/op is the allocations per
// event.
func BenchmarkPipeline(b *testing.B) {
	data := mixedStream(b)
	formats := []string{"plain", "json", "text", "markdown", "pretty"}
	for _, f := range formats {
		if _, err := render.New(f, io.Discard, render.Config{}); err != nil {
			continue // not registered (yet)
		}
		b.Run(f, func(b *testing.B) {
			events := countEvents(b, data)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			runs := 0
			for b.Loop() {
				runPipeline(b, data, "-o", f, "--color", "never", "--width", "100")
				runs++
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(events), "events/op")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(runs*events), "allocs/event")
		})
	}
}

// BenchmarkClaudeCorpus renders the Claude captures (bench/compare's
// input) as plain text, in pretty (not a terminal: no live region) and
// as markdown.
func BenchmarkClaudeCorpus(b *testing.B) {
	for _, format := range []string{"plain", "pretty", "markdown"} {
		b.Run(format, func(b *testing.B) {
			data := claudeCorpusStream(b)
			if data == nil {
				b.Skip("no ../shared/corpus/claude")
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				runPipeline(b, data, "-o", format, "--color", "never")
			}
		})
	}
}

// countEvents counts the events the json format writes for data.
func countEvents(b *testing.B, data []byte) int {
	var out countLines
	env := &Env{Stdin: bytes.NewReader(data), Stdout: &out, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	Run([]string{"-o", "json"}, env)
	return out.n
}

type countLines struct{ n int }

func (c *countLines) Write(p []byte) (int, error) {
	c.n += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}

// BenchmarkStartup is one tiny input through the whole command: flag
// parsing, registry, detection, renderer set-up.
func BenchmarkStartup(b *testing.B) {
	line := []byte(`{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/","tools":[],"claude_code_version":"2.1.207"}` + "\n")
	b.ReportAllocs()
	for b.Loop() {
		runPipeline(b, line, "-o", "plain")
	}
}
