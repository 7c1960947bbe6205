package claude_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentfmt/agentfmt/internal/gen"
	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/parsers/all"
	"github.com/agentfmt/agentfmt/streaming"
)

// benchDecode runs the lines of data through the decoder (every agent's
// detector, the Claude parser) and, with session set, the session, into a
// handler that drops the events. The line buffer is reused as the reader
// reuses it, and the decoder lends line text as the command's does.
func benchDecode(b *testing.B, data []byte, session bool) {
	lines := bytes.Split(data, []byte("\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var events int
	count := streaming.HandlerFunc(func(*streaming.Event) error { events++; return nil })
	buf := make([]byte, 0, 1<<16)
	for b.Loop() {
		events = 0
		var out parsers.Emit = parsers.EmitFunc(func(_ streaming.Mode, ev *streaming.Event) error { return count(ev) })
		var sess *streaming.Session
		if session {
			sess = streaming.NewSession(count, streaming.Options{})
			out = sess
		}
		dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{}, out)
		if err != nil {
			b.Fatal(err)
		}
		for i, l := range lines {
			buf = append(buf[:0], l...)
			if err := dec.Decode(input.Line{Bytes: buf, N: i + 1}); err != nil {
				b.Fatal(err)
			}
		}
		if err := dec.Close(); err != nil {
			b.Fatal(err)
		}
		if sess != nil {
			if err := sess.Close(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(lines)), "lines/op")
	b.ReportMetric(float64(events), "events/op")
}

// BenchmarkDecode: generated Claude stream-json with partial messages
// (many small delta lines, big tool results).
func BenchmarkDecode(b *testing.B) {
	var buf bytes.Buffer
	if err := gen.Claude(&buf, 16<<20, 1); err != nil {
		b.Fatal(err)
	}
	b.Run("parser", func(b *testing.B) { benchDecode(b, buf.Bytes(), false) })
	b.Run("session", func(b *testing.B) { benchDecode(b, buf.Bytes(), true) })
}

// BenchmarkDecodeCorpus: the captures of ../shared/corpus/claude, repeated
// to 16 MB (what bench/compare times against jq).
func BenchmarkDecodeCorpus(b *testing.B) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "claude")
	if _, err := os.Stat(dir); err != nil {
		b.Skip("no corpus")
	}
	var buf bytes.Buffer
	if err := gen.Corpus(&buf, dir, 16<<20); err != nil {
		b.Fatal(err)
	}
	b.Run("parser", func(b *testing.B) { benchDecode(b, buf.Bytes(), false) })
	b.Run("session", func(b *testing.B) { benchDecode(b, buf.Bytes(), true) })
}

// BenchmarkDecodeFile: the first 24 MB of the Claude stream in
// $AGENTFMT_BENCH_INPUT (say, what bench/gen makes), when it is set.
func BenchmarkDecodeFile(b *testing.B) {
	path := os.Getenv("AGENTFMT_BENCH_INPUT")
	if path == "" {
		b.Skip("AGENTFMT_BENCH_INPUT not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if len(data) > 24<<20 {
		data = data[:bytes.LastIndexByte(data[:24<<20], '\n')+1]
	}
	b.Run("parser", func(b *testing.B) { benchDecode(b, data, false) })
	b.Run("session", func(b *testing.B) { benchDecode(b, data, true) })
}
