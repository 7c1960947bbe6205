// Command profile runs agentfmt in-process on a file several times and
// writes a CPU or allocation profile, for `go tool pprof`:
//
//	go run ./bench/gen -kind corpus -corpus ../shared/corpus/claude -size 100MB > /tmp/claude.jsonl
//	go run ./bench/profile -input /tmp/claude.jsonl -n 10 -cpuprofile /tmp/cpu.prof
//	go tool pprof -top -cum /tmp/cpu.prof
//
// Output goes to a buffer that is thrown away; the process's own CPU time
// per run is printed, so that one change can be compared with another in
// the same conditions.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/agentfmt/agentfmt/cmd"
)

func main() {
	input := flag.String("input", "", "the stream to render (required)")
	n := flag.Int("n", 10, "runs")
	format := flag.String("o", "plain", "output format")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile here")
	memProfile := flag.String("memprofile", "", "write an allocation profile of one run here (ignores -n)")
	hz := flag.Int("hz", 0, "CPU profile samples per second (default: the runtime's 100)")
	flag.Parse()
	if *input == "" {
		fmt.Fprintln(os.Stderr, "profile: -input is required")
		os.Exit(2)
	}
	if *memProfile != "" {
		runtime.MemProfileRate = 4096
		*n = 1
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		check(err)
		if *hz > 0 {
			runtime.SetCPUProfileRate(*hz) // (pprof then warns that the rate is set already)
		}
		check(pprof.StartCPUProfile(f))
		defer pprof.StopCPUProfile()
	}
	var cpu []time.Duration
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < *n; i++ {
		in, err := os.Open(*input)
		check(err)
		env := &cmd.Env{Stdin: in, Stdout: bufio.NewWriter(io.Discard), Stderr: io.Discard,
			Getenv:     func(string) string { return "" },
			IsTerminal: func(io.Writer) bool { return false },
			TermSize:   func(io.Writer) (int, int, bool) { return 0, 0, false }}
		before := cpuTime()
		cmd.Run(append([]string{"-o", *format, "--color", "never"}, flag.Args()...), env)
		cpu = append(cpu, cpuTime()-before)
		in.Close()
	}
	if *memProfile != "" {
		f, err := os.Create(*memProfile)
		check(err)
		check(pprof.Lookup("allocs").WriteTo(f, 0))
		f.Close()
	}
	runtime.ReadMemStats(&after)
	best := cpu[0]
	for _, c := range cpu {
		best = min(best, c)
	}
	fmt.Printf("%d runs, CPU per run: best %v, all %v; allocated per run: %.1f MB in %d objects, %d collections\n",
		*n, best.Round(time.Millisecond), cpu, float64(after.TotalAlloc-before.TotalAlloc)/1e6/float64(*n),
		(after.Mallocs-before.Mallocs)/uint64(*n), (after.NumGC-before.NumGC)/uint32(*n))
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		os.Exit(1)
	}
}
