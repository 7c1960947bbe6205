package input

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/agentfmt/agentfmt/internal/gen"
)

var (
	benchOnce  sync.Once
	benchLines []byte
)

// claudeStream is 32 MB of generated Claude stream-json, built once.
func claudeStream(b *testing.B) []byte {
	benchOnce.Do(func() {
		var buf bytes.Buffer
		if err := gen.Claude(&buf, 32<<20, 1); err != nil {
			b.Fatal(err)
		}
		benchLines = buf.Bytes()
	})
	return benchLines
}

func countLines(b *testing.B, data []byte, max int) int {
	r := NewReader(bytes.NewReader(data), max)
	n := 0
	for {
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
}

// BenchmarkReader reads a generated agent stream line by line; allocs/op
// over lines/op is the allocations per line (none: lines are handed out
// from the read buffer).
func BenchmarkReader(b *testing.B) {
	data := claudeStream(b)
	lines := countLines(b, data, 0)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		countLines(b, data, 0)
	}
	b.ReportMetric(float64(lines), "lines/op")
}

// BenchmarkReaderLongLines reads lines of 3 MB (tool results with a file
// in them), gathered from many reads.
func BenchmarkReaderLongLines(b *testing.B) {
	line := `{"type":"user","message":{"content":"` + strings.Repeat("0123456789abcdef", 3<<16) + `"}}` + "\n"
	data := []byte(strings.Repeat(line, 8))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		countLines(b, data, 0)
	}
}

// BenchmarkReaderSkipped reads lines over --max-line: counted, not kept.
func BenchmarkReaderSkipped(b *testing.B) {
	line := strings.Repeat("x", 1<<20) + "\n"
	data := []byte(strings.Repeat(line, 16))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		countLines(b, data, 64<<10)
	}
}
