package codex_test

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// FuzzSessionFiles feeds arbitrary input, seeded with the fixtures of the
// app-server log and the agents' session files, through the decoder (the
// whole registry, detected and forced to each reader's agent) and the
// session: no panic, no error, only deltas downstream.
func FuzzSessionFiles(f *testing.F) {
	for _, folder := range []string{"codex-app-server", "codex-rollout", "claude-transcript", "gemini-session"} {
		parsertest.SeedFixtures(f, folder)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, force := range []string{"", "codex", "claude", "gemini"} {
			res := parsertest.RunOpts(all.Agents(), in, parsers.DecoderOptions{Force: force}, streaming.Options{})
			if res.Err != nil {
				t.Fatalf("force %q: %v", force, res.Err)
			}
		}
	})
}
