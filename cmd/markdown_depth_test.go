//go:build !windows

package cmd

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// answerStream is a Claude stream whose answer is text.
func answerStream(text string) string {
	a, _ := json.Marshal(map[string]any{"type": "assistant", "session_id": "s",
		"message": map[string]any{"id": "m1", "role": "assistant", "model": "m", "content": []map[string]any{{"type": "text", "text": text}}}})
	r, _ := json.Marshal(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": text, "session_id": "s", "num_turns": 1, "duration_ms": 1})
	return `{"type":"system","subtype":"init","session_id":"s","model":"m","tools":[],"cwd":"/tmp"}` + "\n" + string(a) + "\n" + string(r) + "\n"
}

// nestedList is a list nested depth deep (its size grows as the square).
func nestedList(depth int) string {
	var b strings.Builder
	for i := range depth {
		fmt.Fprintf(&b, "%s- item %d\n", strings.Repeat("  ", i), i)
	}
	return b.String()
}

// steppedQuotes are quotes one level deeper on every line.
func steppedQuotes(depth int) string {
	var b strings.Builder
	for i := range depth {
		fmt.Fprintf(&b, "%s q %d\n", strings.Repeat(">", i+1), i)
	}
	return b.String()
}

// leastCPU is the least CPU time (the process's, user and system: the
// collector's work counts) of a few runs of f.
func leastCPU(f func()) time.Duration {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	best := time.Duration(1 << 62)
	for range 3 {
		start := cpu()
		f()
		best = min(best, cpu()-start)
	}
	return best
}

// Markdown nested thousands deep costs time in proportion to its size in
// every format: a text four times as deep (sixteen times the bytes) takes
// at most about sixteen times as long, not the 64 or more that a cost
// growing with the depth times the size would (what it once cost:
// docs/performance.md). Beyond mddepth.Max the
// nesting is text, still there to read.
//
// (Not in parallel: it measures the process's CPU time.)
func TestDeepMarkdownLinear(t *testing.T) {
	for _, shape := range []struct {
		name string
		make func(int) string
	}{{"list", nestedList}, {"quotes", steppedQuotes}} {
		// The everyday run takes pretty; AGENTFMT_SLOW=1 every format.
		for _, format := range testenv.Cases([]string{"pretty", "html", "markdown"}, 1) {
			small, large := answerStream(shape.make(200)), answerStream(shape.make(800))
			run := func(in string) func() {
				return func() {
					c := cli{args: []string{"-o", format, "--width", "100", "--color", "always"}, stdin: strings.NewReader(in), tty: format == "pretty"}
					if r := c.run(t); r.code != 0 || !strings.Contains(r.stdout, "199") {
						t.Fatalf("%s %s: exit %d, %d bytes", shape.name, format, r.code, len(r.stdout))
					}
				}
			}
			ts, tl := leastCPU(run(small)), leastCPU(run(large))
			if ratio := float64(tl) / float64(max(ts, time.Millisecond)); ratio > 32 {
				t.Errorf("%s, -o %s: %v for %d bytes, %v for %d (×%.0f for ×%.0f the bytes)", shape.name, format, ts, len(small), tl, len(large), ratio, float64(len(large))/float64(len(small)))
			}
		}
	}
}
