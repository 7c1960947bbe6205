package html_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/cmd"
)

// page renders data as a page through the whole command (parsers,
// session, renderer), as `agentfmt -o html` does.
func page(t testing.TB, data []byte, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cmd.Env{
		Stdin:    bytes.NewReader(data),
		Stdout:   &out,
		Stderr:   &errb,
		Getenv:   func(string) string { return "" },
		Now:      func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
		Tick:     make(chan time.Time),
		Scribble: true,
	}
	var code int
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("panic: %v", r)
			}
		}()
		code = cmd.Run(append([]string{"-o", "html"}, args...), env)
	}()
	return out.String(), code
}

// fixture reads a file under ../../testdata.
func fixture(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
