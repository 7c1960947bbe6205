package claude_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentfmt/agentfmt/input"
	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/parsers/all"
	"github.com/agentfmt/agentfmt/streaming"
)

// BenchmarkDecodeLent runs the first 24 MB of $AGENTFMT_BENCH_INPUT (a
// Claude stream) through the decoder as agentfmt does (lines borrowed,
// payloads lent, settled after each line) into a handler that drops the
// events: the parser's and the decoder's cost, without the session's.
func BenchmarkDecodeLent(b *testing.B) {
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
	lines := bytes.Split(data, []byte("\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var events int
	out := parsers.Emit(func(*streaming.Event) error { events++; return nil })
	buf := make([]byte, 0, 1<<16)
	for b.Loop() {
		events = 0
		dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{Settle: func() {}}, out)
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
	}
	b.ReportMetric(float64(events), "events/op")
}
