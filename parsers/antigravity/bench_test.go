package antigravity_test

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

// BenchmarkDecodeCorpus: the captures of ../shared/corpus/antigravity repeated
// to 100 MB, through every agent's detector and the antigravity parser
// ("parser"), and the session too ("session"); "codex-parser" and
// "codex-session" are the Codex parser on its own captures, the same way,
// for comparison (issue 13: within 20% of its throughput).
//
//	go test ./parsers/antigravity -run '^$' -bench DecodeCorpus -benchtime 3x
func BenchmarkDecodeCorpus(b *testing.B) {
	for _, c := range []struct{ name, folder string }{{"", "antigravity"}, {"codex-", "codex"}} {
		dir := filepath.Join("..", "..", "..", "shared", "corpus", c.folder)
		if _, err := os.Stat(dir); err != nil {
			b.Skip("no corpus")
		}
		var buf bytes.Buffer
		if err := gen.Corpus(&buf, dir, 100<<20); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"parser", func(b *testing.B) { benchDecode(b, buf.Bytes(), false) })
		b.Run(c.name+"session", func(b *testing.B) { benchDecode(b, buf.Bytes(), true) })
	}
}

// benchDecode runs the lines of data through the decoder and, with
// session set, the session, into a handler that drops the events; the
// line buffer is reused as the reader reuses it (see
// parsers/claude/bench_test.go).
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
