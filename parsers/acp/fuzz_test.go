package acp_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/parsers/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// FuzzParse feeds arbitrary input (seeded with the fixtures, whole and
// line by line) through the decoder and session: no panic, no error, and
// the session's output keeps the contract (text-like events are deltas).
func FuzzParse(f *testing.F) {
	for _, file := range fixtures(f) {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
		for _, line := range strings.Split(string(b), "\n") {
			f.Add(line)
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		r := parsertest.Run(agents, in)
		if r.Err != nil {
			t.Fatalf("error: %v", r.Err)
		}
		for _, e := range r.Events {
			if e.Mode != streaming.Delta {
				t.Fatalf("event %s left the session with mode %s", e.Kind, e.Mode)
			}
		}
	})
}
