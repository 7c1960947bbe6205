package cmd

// Lines nested millions of levels deep (issue 16): judged without
// recursion, so no stack overflow (a fatal runtime error: exit 2 and a
// stack dump, no recover, the terminal left as it was), in memory linear
// in the line.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// deepLines are lines nested n levels deep in the places a validator
// looks at: a first line that is an array, an unknown event, a tool's
// input, a JSON array of events.
func deepLines(n int) map[string]string {
	nest := strings.Repeat("[", n) + strings.Repeat("]", n)
	return map[string]string{
		"array":   nest + "\n",
		"unknown": `{"type":"weird","x":` + nest + "}\n",
		"tool": `{"type":"system","subtype":"init","session_id":"s","model":"m"}` + "\n" +
			`{"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"x":` + nest + `}}]}}` + "\n",
		"events": `[{"type":"weird","x":` + nest + "}]\n",
	}
}

func writeTemp(t testing.TB, dir, name, s string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDeepNestingBinary runs the built binary on lines of 7 million
// levels in every format: a run's exit status, no stack dump.
func TestDeepNestingBinary(t *testing.T) {
	t.Parallel()
	testenv.Slow(t) // 16 runs of the binary on 14 MB lines; TestDeepNestingMemory runs a 4 MB one everyday
	bin := hostileBinary(t)
	dir := t.TempDir()
	for name, in := range deepLines(7_000_000) {
		path := writeTemp(t, dir, name+".jsonl", in)
		for _, format := range []string{"json", "plain", "markdown", "text"} {
			var stderr bytes.Buffer
			c := exec.Command(bin, "-o", format, path)
			c.Stderr = &stderr
			err := c.Run()
			code := c.ProcessState.ExitCode()
			if err != nil && code != 1 && code != 3 {
				t.Errorf("%s -o %s: exit %d: %s", name, format, code, clipOut(stderr.String()))
			}
			if s := stderr.String(); strings.Contains(s, "goroutine") || strings.Contains(s, "fatal error") {
				t.Errorf("%s -o %s: stack dump: %s", name, format, clipOut(s))
			}
		}
	}
}

// TestDeepNestingMemory: one line of 2 million levels (4 MB) in at most
// 200 MiB at peak, in -o json (which keeps the unknown event's JSON), and
// in plain with AGENTFMT_SLOW=1.
func TestDeepNestingMemory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs agentfmt on a 4 MB line")
	}
	path := writeTemp(t, t.TempDir(), "deep.jsonl", deepLines(2_000_000)["unknown"])
	for _, format := range testenv.Cases([]string{"json", "plain"}, 1) {
		if peak := peakRSS(t, path, "-o", format); peak > 200<<20 {
			t.Errorf("-o %s: peak %d MiB for a 2-million-level line, want ≤ 200", format, peak>>20)
		}
	}
}

// BenchmarkDeepNesting reports the peak memory of agentfmt (a child
// process) on one line of 2 million levels (go test -bench DeepNesting
// -run '^$' ./cmd).
func BenchmarkDeepNesting(b *testing.B) {
	path := writeTemp(b, b.TempDir(), "deep.jsonl", deepLines(2_000_000)["unknown"])
	var peak int64
	for b.Loop() {
		peak = max(peak, peakRSS(b, path, "-o", "json"))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
}
