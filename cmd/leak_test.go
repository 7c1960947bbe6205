package cmd

import (
	"io"
	"strings"
	"testing"
)

// TestRunKeepsNothing: a Run leaves nothing live behind it. cobra keeps the
// completion functions of a command's flags in a map of its own for the
// life of the process, so registering them on every Run kept every command
// tree made (about 15 MiB by the end of this package's tests, enough to
// fail the memory tests when run twice); they are registered only for a
// completion request now (2.5 KB a run kept before: 1 MiB over these
// runs).
func TestRunKeepsNothing(t *testing.T) {
	env := func() *Env {
		return &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	}
	Run([]string{"--version"}, env()) // (what the first Run sets up once)
	const runs = 400
	before := liveHeap()
	for range runs {
		Run([]string{"--version"}, env())
	}
	if grew := int64(liveHeap()) - int64(before); grew > 256<<10 {
		t.Errorf("%d runs left %d KiB live (%d bytes a run)", runs, grew>>10, grew/runs)
	}
}
