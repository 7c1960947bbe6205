// Command compare measures agentfmt against a jq one-liner on the same
// stream, in one run and alternating, and reports CPU-time ratios and
// agentfmt's peak memory. It also measures per-line latency through pipes,
// and compares two builds of agentfmt (-against), alternating, for
// docs/performance.md.
//
//	go run ./bench/compare -input /tmp/claude.jsonl -runs 5
//	go run ./bench/compare -latency
//	go run ./bench/compare -tags purego -against HEAD -runs 9
//	go run ./bench/compare -without region -input /tmp/long/claude.jsonl
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"
)

// wantRatio is the jq/agentfmt CPU ratio the issues ask of each output
// format on this stream (issue 11: plain; issue 12: markdown and pretty).
var wantRatio = map[string]float64{"plain": 4.5, "markdown": 3, "pretty": 3}

func main() {
	if len(os.Args) > 2 && os.Args[1] == "-measure" {
		measure(os.Args[2:])
		return
	}
	in := flag.String("input", "", "the stream to render (default: generate 100 MB from ../shared/corpus/claude)")
	runs := flag.Int("runs", 5, "alternating runs of each command")
	format := flag.String("format", "plain", "agentfmt output format")
	latency := flag.Bool("latency", false, "measure per-line latency through pipes instead")
	tags := flag.String("tags", "", "build tags for the agentfmt measured")
	env := flag.String("env", "", "comma-separated NAME=VALUE settings for the agentfmt measured (GOGC=100,GOMEMLIMIT=off)")
	against := flag.String("against", "", "compare with this agentfmt instead of jq: a binary, or a git revision to build")
	off := flag.String("without", "", "compare HEAD without a piece of machinery ("+pieceNames()+") with HEAD")
	flag.Parse()

	dir, err := os.MkdirTemp("", "agentfmt-bench")
	check(err)
	defer os.RemoveAll(dir)
	var bin string
	var extra []string
	if *off != "" {
		bin, extra = without(dir, *off)
		*against = "HEAD"
	} else {
		bin = filepath.Join(dir, "agentfmt")
		run("go", "build", "-tags", *tags, "-o", bin, ".")
		if *env != "" {
			extra = strings.Split(*env, ",")
		}
	}

	if *latency {
		measureLatency(bin)
		return
	}
	if *in == "" {
		*in = filepath.Join(dir, "claude.jsonl")
		f, err := os.Create(*in)
		check(err)
		c := exec.Command("go", "run", "./bench/gen", "-kind", "corpus", "-corpus", "../shared/corpus/claude", "-size", "100MB")
		c.Stdout, c.Stderr = f, os.Stderr
		check(c.Run())
		f.Close()
	}
	st, err := os.Stat(*in)
	check(err)
	fmt.Printf("input: %s (%.1f MB)\n", *in, float64(st.Size())/1e6)
	if *against != "" {
		cpuA, peakA, cpuB, peakB := abRuns(*in, *format, *runs, bin, extra, other(dir, *against))
		if *off != "" {
			fmt.Printf("without %s (-o %s): %+.0f %% CPU, %+.0f %% peak RSS (HEAD: %.3f s, %.1f MiB; without: %.3f s, %.1f MiB)\n",
				*off, *format, (cpuA/cpuB-1)*100, (peakA/peakB-1)*100, cpuB, peakB, cpuA, peakA)
		}
		return
	}

	var ratios, agentCPU, jqCPU []float64
	var peak int64
	for i := 0; i < *runs; i++ {
		a, rss := cpu(*in, extra, bin, "-o", *format, "--color", "never")
		j, _ := cpu(*in, nil, "jq", "-r", "-f", "bench/claude.jq")
		agentCPU = append(agentCPU, a)
		jqCPU = append(jqCPU, j)
		ratios = append(ratios, j/a)
		peak = max(peak, rss)
		fmt.Printf("run %d: agentfmt %.2fs CPU, jq %.2fs CPU, ratio %.1f, agentfmt peak RSS %.1f MiB\n", i+1, a, j, j/a, float64(rss)/1024)
	}
	want := ""
	if w, ok := wantRatio[*format]; ok {
		want = fmt.Sprintf(" (want >= %g)", w)
	}
	fmt.Printf("median: agentfmt %.2fs, jq %.2fs, jq/agentfmt CPU ratio %.1f%s; agentfmt peak RSS %.1f MiB (want <= 40); throughput %.0f MB/s of CPU\n",
		median(agentCPU), median(jqCPU), median(ratios), want, float64(peak)/1024, float64(st.Size())/1e6/median(agentCPU))
}

// other is the agentfmt to compare with: the binary at path, or else the
// git revision of that name, built in a temporary worktree.
func other(dir, path string) string {
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		return path
	}
	wt := filepath.Join(dir, "against")
	run("git", "worktree", "add", "--detach", wt, path)
	defer run("git", "worktree", "remove", "--force", wt)
	bin := filepath.Join(dir, "agentfmt-against")
	c := exec.Command("go", "build", "-o", bin, ".")
	c.Dir, c.Stdout, c.Stderr = wt, os.Stderr, os.Stderr
	check(c.Run())
	return bin
}

// abRuns alternates the two agentfmt builds on the input and reports the
// median CPU time and the peak RSS of each: the measured one (bin, with
// env) against the other (base). The order alternates too, so that
// neither always runs second.
func abRuns(in, format string, runs int, bin string, env []string, base string) (cpuA, rssA, cpuB, rssB float64) {
	var a, b, gains []float64
	var peakA, peakB []float64
	for i := 0; i < runs; i++ {
		var ta, tb float64
		var ra, rb int64
		if i%2 == 0 {
			ta, ra = cpu(in, env, bin, "-o", format, "--color", "never")
			tb, rb = cpu(in, nil, base, "-o", format, "--color", "never")
		} else {
			tb, rb = cpu(in, nil, base, "-o", format, "--color", "never")
			ta, ra = cpu(in, env, bin, "-o", format, "--color", "never")
		}
		a, b = append(a, ta), append(b, tb)
		gains = append(gains, tb/ta)
		peakA, peakB = append(peakA, float64(ra)/1024), append(peakB, float64(rb)/1024)
		fmt.Printf("run %d: measured %.3fs %.1f MiB, against %.3fs %.1f MiB, CPU against/measured %.3f\n", i+1, ta, peakA[i], tb, peakB[i], tb/ta)
	}
	fmt.Printf("median: measured %.3fs CPU, %.1f MiB peak; against %.3fs CPU, %.1f MiB peak; CPU against/measured %.3f (runs %.3f-%.3f); peak against/measured %.3f\n",
		median(a), median(peakA), median(b), median(peakB), median(gains), slices.Min(gains), slices.Max(gains), median(peakB)/median(peakA))
	return median(a), median(peakA), median(b), median(peakB)
}

// cpu runs a command on the input, with env added to its environment,
// and returns its user+system CPU seconds and peak RSS in KiB. The command is started by a copy of this program
// (measure): Linux starts a child of a Go program in its parent's memory
// until exec, and counts that memory's peak as the child's own (its
// ru_maxrss), so a child of this process, which holds a 100 MB input's
// worth of buffers, would be said to peak at this process's size. The
// copy is small when it starts the command.
func cpu(input string, env []string, name string, args ...string) (float64, int64) {
	self, err := os.Executable()
	check(err)
	f, err := os.Open(input)
	check(err)
	defer f.Close()
	c := exec.Command(self, append([]string{"-measure", name}, args...)...)
	c.Env = append(os.Environ(), env...)
	c.Stdin = f
	c.Stdout = io.Discard
	var res strings.Builder
	c.Stderr = io.MultiWriter(os.Stderr, &res)
	check(c.Run())
	var sec float64
	var rss int64
	out := res.String()
	i := strings.LastIndex(out, "measure: ")
	if i < 0 {
		check(fmt.Errorf("no measure line from %s", name))
	}
	_, err = fmt.Sscanf(out[i:], "measure: %g s %d KiB", &sec, &rss)
	check(err)
	return sec, rss
}

// measure runs a command with this process's standard files and writes
// its CPU time and peak RSS as the last line of standard error.
func measure(args []string) {
	c := exec.Command(args[0], args[1:]...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := c.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			check(err)
		}
	}
	ps := c.ProcessState
	var rss int64
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	fmt.Fprintf(os.Stderr, "measure: %g s %d KiB\n", (ps.UserTime() + ps.SystemTime()).Seconds(), rss)
}

// measureLatency writes a Claude line every 25 ms into agentfmt -o plain
// through pipes and times how long each takes to appear on its stdout.
func measureLatency(bin string) {
	c := exec.Command(bin, "-o", "plain", "--color", "never")
	stdin, err := c.StdinPipe()
	check(err)
	stdout, err := c.StdoutPipe()
	check(err)
	check(c.Start())
	const n = 200
	sent := make([]time.Time, n)
	got := make(chan [2]int64, n)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			if i := strings.Index(line, "probe-"); i >= 0 {
				var k int
				fmt.Sscanf(line[i:], "probe-%d", &k)
				got <- [2]int64{int64(k), time.Now().UnixNano()}
			}
		}
		close(got)
	}()
	fmt.Fprintln(stdin, `{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/","tools":[],"claude_code_version":"2.1.207"}`)
	go func() {
		for i := 0; i < n; i++ {
			sent[i] = time.Now()
			fmt.Fprintf(stdin, `{"type":"assistant","message":{"id":"msg_%d","role":"assistant","content":[{"type":"text","text":"probe-%d\n"}]},"session_id":"s","parent_tool_use_id":null}`+"\n", i, i)
			time.Sleep(25 * time.Millisecond)
		}
		stdin.Close()
	}()
	var delays []float64
	for g := range got {
		delays = append(delays, float64(time.Duration(g[1]-sent[g[0]].UnixNano()))/float64(time.Millisecond))
	}
	c.Wait()
	if len(delays) == 0 {
		fmt.Println("no probe line came through")
		os.Exit(1)
	}
	sort.Float64s(delays)
	fmt.Printf("latency over %d lines sent every 25 ms: median %.2f ms, p99 %.2f ms, worst %.2f ms (want median <= 5, worst <= 50)\n",
		len(delays), median(delays), delays[len(delays)*99/100], delays[len(delays)-1])
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func run(name string, args ...string) {
	c := exec.Command(name, args...)
	c.Stdout, c.Stderr = os.Stderr, os.Stderr
	check(c.Run())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}
