package codex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/parsers/all"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// BenchmarkSessionFormats decodes (detection, parser, session) a stream
// of about 100 MB made of the real captures of each format the session
// file readers handle, and of the codex exec captures as the yardstick:
// the new readers should run within 20% of the codex parser's MB/s.
//
//	go test ./parsers/codex -run - -bench SessionFormats -benchtime 3x
func BenchmarkSessionFormats(b *testing.B) {
	for _, folder := range []string{"codex", "codex-app-server", "codex-rollout", "claude-transcript", "gemini-session"} {
		b.Run(folder, func(b *testing.B) {
			data := corpusStream(b, folder, 100<<20)
			benchFormat(b, data)
		})
	}
}

// corpusStream repeats the captures of a corpus folder to size bytes; a
// pretty-printed JSON document (a Gemini saved chat) becomes one line.
func corpusStream(b *testing.B, folder string, size int) []byte {
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

// benchFormat runs the lines of data through the decoder and the session
// as the command does: the line buffer reused, line text lent.
func benchFormat(b *testing.B, data []byte) {
	lines := bytes.Split(data, []byte("\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var events int
	count := streaming.HandlerFunc(func(*streaming.Event) error { events++; return nil })
	buf := make([]byte, 0, 1<<16)
	for b.Loop() {
		events = 0
		sess := streaming.NewSession(count, streaming.Options{})
		dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{}, sess)
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
		if err := sess.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(events), "events/op")
}
