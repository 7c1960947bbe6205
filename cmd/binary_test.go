package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built is the agentfmt binary that the subprocess tests run, built once
// per test process: linking it costs more CPU than most of those tests
// (about a second each time), and nothing they do changes it.
var built struct {
	once sync.Once
	dir  string
	bin  string
	out  []byte
	err  error
}

// hostileBinary returns the built agentfmt binary, for the subprocess
// tests.
func hostileBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "agentfmt-test-")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "agentfmt")
		built.out, built.err = exec.Command("go", "build", "-o", built.bin, "..").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// TestMain removes the built binary when the tests are done.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
