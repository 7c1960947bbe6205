package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTwoResultOnlyRuns: a log of two runs that are only a result each
// (claude -p /cost twice into one log; here the shared capture of a
// zero-API local command, twice) shows both answers in every format that
// shows the run, and the last one in -o text (issue 27 item 4: identity is
// per run).
func TestTwoResultOnlyRuns(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../shared/corpus/claude/08-*.jsonl")
	if len(files) == 0 {
		t.Skip("no shared corpus")
	}
	one, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	const answer = "Local command output"
	for _, c := range []struct {
		format string
		want   int
	}{{"plain", 2}, {"pretty", 2}, {"markdown", 2}, {"html", 2}, {"text", 1}, {"json", 4}} {
		t.Run(c.format, func(t *testing.T) {
			r := cli{args: []string{"-o", c.format, "--color", "never"}, stdin: strings.NewReader(string(one) + string(one))}.run(t)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			// json: each answer as its text.delta and in its result.
			if n := strings.Count(r.stdout, answer); n != c.want {
				t.Errorf("the answer shows %d times, want %d:\n%s", n, c.want, r.stdout)
			}
		})
	}
}
