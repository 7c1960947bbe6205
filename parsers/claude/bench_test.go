package claude_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentfmt/agentfmt/internal/gen"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
)

// BenchmarkDecode: generated Claude stream-json with partial messages
// (many small delta lines, big tool results), through every agent's
// detector and the Claude parser ("parser"), and the session too
// ("session").
func BenchmarkDecode(b *testing.B) {
	var buf bytes.Buffer
	if err := gen.Claude(&buf, 16<<20, 1); err != nil {
		b.Fatal(err)
	}
	parsertest.BenchBoth(b, all.Agents(), "", buf.Bytes())
}

// BenchmarkDecodeCorpus: the captures of ../shared/corpus/claude, repeated
// to 16 MB (what bench/compare times against jq).
func BenchmarkDecodeCorpus(b *testing.B) {
	parsertest.BenchBoth(b, all.Agents(), "", parsertest.CorpusStream(b, "claude", 16<<20))
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
	parsertest.BenchBoth(b, all.Agents(), "", data)
}
