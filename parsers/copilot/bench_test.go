package copilot_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
)

// BenchmarkDecodeCorpus: the captures of ../shared/corpus/copilot repeated
// to 100 MB, through every agent's detector and the copilot parser
// ("parser"), and the session too ("session"); "codex-parser" and
// "codex-session" are the Codex parser on its own captures, the same way,
// for comparison (issue 13: within 20% of its throughput).
//
//	go test ./parsers/copilot -run '^$' -bench DecodeCorpus -benchtime 3x
func BenchmarkDecodeCorpus(b *testing.B) {
	for _, c := range []struct{ name, folder string }{{"", "copilot"}, {"codex-", "codex"}} {
		parsertest.BenchBoth(b, all.Agents(), c.name, parsertest.CorpusStream(b, c.folder, 100<<20))
	}
}
