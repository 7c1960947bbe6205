package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// piece is how one hand-written piece of machinery is switched off, so
// that docs/performance.md can say what it buys: a build tag, settings
// in the environment, or edits of a line or two. An edit whose text is
// no longer in its file stops the measurement: the piece has moved, and
// this table must follow it.
type piece struct {
	tags  string
	env   []string
	edits []edit
}

type edit struct{ file, old, new string }

var pieces = map[string]piece{
	// The SSE2 scans of internal/simd: their Go versions instead.
	"asm": {tags: "purego"},
	// internal/view's views without a copy: a string of bytes is a copy,
	// and no string is found inside another (so no long string is
	// skipped by its place in the line, none decoded over itself).
	"views": {edits: []edit{
		{"internal/view/view.go", "return unsafe.String(unsafe.SliceData(b), len(b))", "return string(b)"},
		{"internal/view/view.go", "if len(s) == 0 || len(outer) == 0 {", "if true {"},
	}},
	// The mmap region of internal/input: a long line gathered in pieces
	// and joined, as where the system lends no region.
	"region": {edits: []edit{
		{"internal/input/region_mmap.go", "func reserve(size int) ([]byte, error) {", "func reserve(size int) ([]byte, error) {\n\tif true {\n\t\treturn nil, unix.ENOMEM\n\t}"},
	}},
	// streaming's pool of text pieces: the pieces of texts let go are
	// not kept for the next texts (every text allocates its own).
	"pool": {edits: []edit{
		{"streaming/blocktext.go", "ok && p.n+cap(c) <= piecesMax {", "false && ok && p.n+cap(c) <= piecesMax {"},
	}},
	// cmd's tuneGC: GOGC 200, the 64 MiB soft limit.
	"gc": {env: []string{"GOGC=100", "GOMEMLIMIT=off"}},
}

func pieceNames() string {
	var names []string
	for n := range pieces {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// without builds the committed HEAD without the named piece, in a
// temporary worktree, and returns the binary and the environment to run
// it in.
func without(dir, name string) (string, []string) {
	p, ok := pieces[name]
	if !ok {
		check(fmt.Errorf("no piece %q (pieces: %s)", name, pieceNames()))
	}
	wt := filepath.Join(dir, "without")
	run("git", "worktree", "add", "--detach", wt, "HEAD")
	defer run("git", "worktree", "remove", "--force", wt)
	for _, e := range p.edits {
		path := filepath.Join(wt, e.file)
		b, err := os.ReadFile(path)
		check(err)
		if !strings.Contains(string(b), e.old) {
			check(fmt.Errorf("%s no longer holds %q: piece %q has moved", e.file, e.old, name))
		}
		check(os.WriteFile(path, []byte(strings.Replace(string(b), e.old, e.new, 1)), 0o644))
	}
	bin := filepath.Join(dir, "agentfmt-without")
	c := exec.Command("go", "build", "-tags", p.tags, "-o", bin, ".")
	c.Dir, c.Stdout, c.Stderr = wt, os.Stderr, os.Stderr
	check(c.Run())
	return bin, p.env
}
