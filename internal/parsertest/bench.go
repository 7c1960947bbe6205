package parsertest

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Bench runs the lines of data through a decoder over agents (every
// agent's detector, as the command does) and, with session set, the
// session, into a handler that drops the events. The line buffer is
// reused as the reader reuses it, and the decoder lends line text as the
// command's does. It reports lines/op and events/op.
func Bench(b *testing.B, agents []parsers.Agent, data []byte, session bool) {
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
		dec, err := parsers.NewDecoder(agents, parsers.DecoderOptions{}, out)
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

// BenchBoth runs Bench on data twice, as the sub-benchmarks
// prefix+"parser" (decoder only) and prefix+"session" (decoder and
// session).
func BenchBoth(b *testing.B, agents []parsers.Agent, prefix string, data []byte) {
	b.Run(prefix+"parser", func(b *testing.B) { Bench(b, agents, data, false) })
	b.Run(prefix+"session", func(b *testing.B) { Bench(b, agents, data, true) })
}

// CorpusStream repeats the captures of ../shared/corpus/<folder> (*.jsonl
// and *.json, in name order) to at least size bytes; a pretty-printed
// JSON document (a Gemini saved chat) becomes one line. It skips the
// benchmark when the folder has no captures. Seen from a package two
// levels down (parsers/<agent>).
func CorpusStream(b testing.TB, folder string, size int) []byte {
	b.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", folder)
	var files []string
	for _, pat := range []string{"*.jsonl", "*.json"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	if len(files) == 0 {
		b.Skip("no captures in " + dir)
	}
	sort.Strings(files)
	var one []byte
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if t := bytes.TrimSpace(d); len(t) > 0 && bytes.IndexByte(t, '\n') > 0 && gjson.ValidBytes(t) {
			d = []byte(gjson.ParseBytes(t).Get("@ugly").Raw)
		}
		one = append(one, bytes.TrimRight(d, "\n")...)
		one = append(one, '\n')
	}
	out := make([]byte, 0, size+len(one))
	for len(out) < size {
		out = append(out, one...)
	}
	return out
}
