// Command gen writes a large agent stream for benchmarks:
//
//	go run ./bench/gen -kind mixed -size 100MB > /tmp/mixed.jsonl
//	go run ./bench/gen -kind corpus -corpus ../shared/corpus/claude -size 100MB > /tmp/claude.jsonl
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/gen"
)

func main() {
	kind := flag.String("kind", "mixed", "claude, codex, gemini, mixed or corpus")
	sizeFlag := flag.String("size", "100MB", "about how much to write (KB, MB, GB)")
	corpus := flag.String("corpus", "../shared/corpus/claude", "corpus folder for -kind corpus")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	size, err := parseSize(*sizeFlag)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	switch *kind {
	case "claude":
		err = gen.Claude(os.Stdout, size, *seed)
	case "codex":
		err = gen.Codex(os.Stdout, size, *seed)
	case "gemini":
		err = gen.Gemini(os.Stdout, size, *seed)
	case "mixed":
		err = gen.Mixed(os.Stdout, size, *seed)
	case "corpus":
		err = gen.Corpus(os.Stdout, *corpus, size)
	default:
		err = fmt.Errorf("unknown kind %q", *kind)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	u := strings.ToUpper(s)
	for _, suf := range []struct {
		s string
		m int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(u, suf.s) {
			mult = suf.m
			u = strings.TrimSuffix(u, suf.s)
			break
		}
	}
	n, err := strconv.ParseFloat(u, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return int64(n * float64(mult)), nil
}
