package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// controlsLine is a line of size bytes that is not JSON: NULs (the hole a
// sparse file or a copytruncate leaves) or a mix of control bytes, each
// shown as a picture of three bytes.
func controlsLine(size int, mix bool) []byte {
	b := make([]byte, size, size+1)
	if mix {
		for i := range b {
			b[i] = "\x01\x1b\x7f\x08"[i%4]
		}
	}
	return append(b, '\n')
}

// TestControlsLinePeak: a line of 48 MiB of NULs, or of other control
// bytes, peaks at no more than three times its size above the process's
// idle peak (idleRSS) in every format, as a line of text does. Made visible whole (␀ is three bytes) and then
// laid out, it took several times that; the formats for a person now
// take it in pieces (filter.LongLines). Figures in docs/performance.md.
func TestControlsLinePeak(t *testing.T) {
	testenv.Slow(t)
	if runtime.GOOS != "linux" {
		t.Skip("renders 48 MiB lines in a child process, measured by /usr/bin/time (Linux only)")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("no /usr/bin/time")
	}
	const size = answerSize
	dir := t.TempDir()
	nul, mix := filepath.Join(dir, "nul.txt"), filepath.Join(dir, "mix.txt")
	if err := os.WriteFile(nul, controlsLine(size, false), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mix, controlsLine(size, true), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := builtBinary(t)
	runs := []struct {
		file   string
		format string
	}{{mix, "plain"}, {mix, "pretty"}}
	for _, format := range []string{"plain", "pretty", "markdown", "html", "json", "text"} {
		runs = append(runs, struct{ file, format string }{nul, format})
	}
	for _, r := range runs {
		args := []string{"-o", r.format, "--width", "100", "--color", "always"}
		peak := maxRSS(t, bin, r.file, args...)
		t.Logf("%s -o %s: peak %s", filepath.Base(r.file), r.format, mib(uint64(peak)))
		if bound := idleRSS(t, bin, args...) + 3*size; peak > bound {
			t.Errorf("%s -o %s: peak %s, bound %s (three times the line)",
				filepath.Base(r.file), r.format, mib(uint64(peak)), mib(uint64(bound)))
		}
	}
}

// BenchmarkControlsLine renders a line of 4 MiB of NULs in each format.
func BenchmarkControlsLine(b *testing.B) {
	data := controlsLine(4<<20, false)
	for _, format := range []string{"plain", "pretty", "markdown", "json"} {
		b.Run(format, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				runPipeline(b, bytes.Clone(data), "-o", format, "--color", "always", "--width", "100")
			}
		})
	}
}
