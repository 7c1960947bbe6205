package acp_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/parsers/acp"
	"github.com/agentfmt/agentfmt/parsers/parsertest"
)

var update = flag.Bool("update", false, "rewrite golden files")

var agents = []parsers.Agent{acp.Agent}

func fixtures(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("../../testdata/acp/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return files
}

// TestGolden runs every fixture through the decoder and session and
// compares the events with testdata/acp/NN-….events.
func TestGolden(t *testing.T) {
	for _, f := range fixtures(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := parsertest.Run(agents, string(in)).Check(t).Dump()
			golden := strings.TrimSuffix(f, ".jsonl") + ".events"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("events differ from %s (run with -update and review):\n--- got\n%s", golden, got)
			}
		})
	}
}
