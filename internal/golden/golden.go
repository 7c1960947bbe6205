// Package golden compares what a test renders with a golden file under
// testdata, and rewrites the file instead when the tests run with -update:
//
//	golden.Check(t, filepath.Join("testdata", "x.pretty"), out)
//
//	go test ./... -update   # rewrite every golden file, then read git diff
//
// Every test package of the repository imports golden (those without
// golden files with a blank import), so that `go test ./... -update` is a
// flag every test binary knows.
//
// A golden file holds the output as text a person can review in a diff:
// the bytes a terminal acts on are written as visible tokens (see Encode),
// so `⟨ESC⟩[1m` stands where the output has the escape byte. Content's own
// escapes are already shown as ␛ by the sanitiser, so the two never meet.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"
)

var update = flag.Bool("update", false, "rewrite the golden files with what the tests render (then read the diff)")

// Update reports whether the tests run with -update: goldens are
// rewritten, not compared.
func Update() bool { return *update }

// maxDiffLines is how much of a difference a failure shows.
const maxDiffLines = 60

// Check compares got with the golden file at path (stored encoded, see
// Encode). Under -update it writes the file instead (and its directory),
// leaving an unchanged file alone.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	enc := Encode(got)
	if *update {
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, enc) {
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, enc, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, command(t))
		return
	}
	if !bytes.Equal(want, enc) {
		t.Errorf("%s differs from the output (- golden, + output); if the change is meant, %s rewrites it: read the diff before committing\n%s",
			path, command(t), Diff(string(want), string(enc)))
	}
}

// CheckString is Check for a string.
func CheckString(t testing.TB, path, got string) {
	t.Helper()
	Check(t, path, []byte(got))
}

// Diff is a unified diff of two encoded texts, cut after maxDiffLines
// lines.
func Diff(want, got string) string {
	d := udiff.Unified("golden", "output", want, got)
	if d == "" && want != got {
		return "(the texts differ only where a diff cannot show it)\n"
	}
	lines := strings.SplitAfter(d, "\n")
	if len(lines) > maxDiffLines {
		rest := len(lines) - maxDiffLines
		lines = append(lines[:maxDiffLines], fmt.Sprintf("… %d more lines of diff\n", rest))
	}
	return strings.Join(lines, "")
}

var unsafeRun = regexp.MustCompile(`[^A-Za-z0-9_]`)

// command is the go test command that rewrites the golden files of t's
// top-level test.
func command(t testing.TB) string {
	top, _, _ := strings.Cut(t.Name(), "/")
	pkg := "."
	if wd, err := os.Getwd(); err == nil {
		if root := moduleRoot(wd); root != "" {
			if rel, err := filepath.Rel(root, wd); err == nil {
				pkg = "./" + filepath.ToSlash(rel)
			}
		}
	}
	if pkg == "./." {
		pkg = "."
	}
	return fmt.Sprintf("go test %s -run '^%s$' -update", pkg, unsafeRun.ReplaceAllString(top, "."))
}

// moduleRoot is the nearest directory at or above dir that holds go.mod.
func moduleRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}
