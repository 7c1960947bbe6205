package claude_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/claude"
	"github.com/agentfmt/agentfmt/streaming"
)

// FuzzParse feeds arbitrary input (seeded with the fixtures' lines and
// pairs of them) through the decoder and session: no panic, no error.
func FuzzParse(f *testing.F) {
	for _, file := range fixtures(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		f.Add(string(data))
		for i, l := range lines {
			f.Add(l)
			if i > 0 {
				f.Add(lines[i-1] + "\n" + l)
			}
		}
	}
	agents := []parsers.Agent{claude.Agent}
	f.Fuzz(func(t *testing.T, in string) {
		r := parsertest.Run(agents, in)
		if r.Err != nil {
			t.Fatalf("error: %v", r.Err)
		}
		// Forced, so every JSON line reaches the parser.
		r = parsertest.RunOpts(agents, in, parsers.DecoderOptions{Force: "claude"}, streamingOpts)
		if r.Err != nil {
			t.Fatalf("forced: %v", r.Err)
		}
	})
}

var streamingOpts = streaming.Options{}
