package claude_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/parsers/claude"
	"github.com/agentfmt/agentfmt/parsers/parsertest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fixtures lists the hand-written fixtures of testdata/claude.
func fixtures(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "claude", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return files
}

// TestGolden renders each fixture's events (Dump form) and compares them
// with testdata/claude/NN-….events; -update rewrites them.
func TestGolden(t *testing.T) {
	for _, f := range fixtures(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := parsertest.Run([]parsers.Agent{claude.Agent}, string(data)).Check(t).Dump()
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
				t.Errorf("events differ from %s (run with -update and review):\n%s", golden, diff(string(want), got))
			}
		})
	}
}

// diff shows the first lines that differ.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	n := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			b.WriteString("- " + a + "\n+ " + c + "\n")
			if n++; n == 5 {
				break
			}
		}
	}
	return b.String()
}
