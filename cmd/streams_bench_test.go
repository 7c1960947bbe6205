//go:build unix

package cmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/gen"
)

// BenchmarkFollowStreams follows 1, 10 or 50 files at once to their end,
// the whole command (followers, readers, decoders, sessions, the view),
// the same 8 MB of generated runs split among them, then twice that among
// 50. Linear in what the streams receive: the CPU time per byte
// (cpu-ns/B, from getrusage: waiting is not counted, and the machine's
// load matters less than to the wall time) the same whatever the number
// of streams, and twice the input twice the time. Each file ends with a
// finished run; following ends 1 ms after the last. (One file alone is
// the single-stream pipeline; several go through the stream set.)
func BenchmarkFollowStreams(b *testing.B) {
	for _, format := range []string{"plain", "json", "pretty"} {
		for _, c := range []struct{ streams, mb int }{{1, 8}, {10, 8}, {50, 8}, {50, 16}} {
			dir := b.TempDir()
			var files []string
			total := 0
			for i := range c.streams {
				var buf bytes.Buffer
				if err := gen.Mixed(&buf, int64(c.mb<<20/c.streams), uint64(i+1)); err != nil {
					b.Fatal(err)
				}
				// The last run must finish for following to end.
				data := buf.Bytes()
				p := filepath.Join(dir, fmt.Sprintf("s%02d.jsonl", i))
				if err := os.WriteFile(p, data, 0o644); err != nil {
					b.Fatal(err)
				}
				files = append(files, p)
				total += len(data)
			}
			b.Run(fmt.Sprintf("%s/streams=%d/MB=%d", format, c.streams, c.mb), func(b *testing.B) {
				b.SetBytes(int64(total))
				before := cpuTime()
				for range b.N {
					env := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
						Getenv: func(string) string { return "" }, Now: time.Now, FollowSettle: time.Millisecond}
					args := append([]string{"--follow", "-o", format, "--width", "100"}, files...)
					if code := Run(args, env); code > ExitIncomplete {
						b.Fatalf("exit %d", code)
					}
				}
				cpu := cpuTime() - before
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(total), "cpu-ns/B")
			})
		}
	}
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
