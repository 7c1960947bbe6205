package codex_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
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
			parsertest.Bench(b, all.Agents(), parsertest.CorpusStream(b, folder, 100<<20), true)
		})
	}
}
