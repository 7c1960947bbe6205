package cmd

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/internal/testmain"
)

// linked is the agentfmt binary that the subprocess tests run: a link
// named agentfmt to the test binary, which TestMain runs as agentfmt when
// started by that name. Made once per test process; no build of its own.
var linked struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// hostileBinary returns a path that runs agentfmt, for the subprocess
// tests and the scripts they hand to a shell or tmux.
func hostileBinary(t *testing.T) string {
	t.Helper()
	linked.once.Do(func() {
		self, err := os.Executable()
		if err != nil {
			linked.err = err
			return
		}
		if linked.dir, linked.err = os.MkdirTemp("", "agentfmt-test-"); linked.err != nil {
			return
		}
		linked.bin = filepath.Join(linked.dir, "agentfmt"+filepath.Ext(self))
		if linked.err = os.Symlink(self, linked.bin); linked.err != nil {
			linked.err = os.Link(self, linked.bin) // (Windows without the right to make symbolic links)
		}
	})
	if linked.err != nil {
		t.Fatalf("linking the test binary as agentfmt: %v", linked.err)
	}
	return linked.bin
}

// built is agentfmt built by go build, once per test process, for the
// tests that measure the process's memory: the test binary linked as
// agentfmt carries the test's own instrumentation (under -race, shadow
// memory several times the heap), so its peaks are not agentfmt's.
var built struct {
	once sync.Once
	dir  string
	bin  string
	out  []byte
	err  error
}

// builtBinary returns agentfmt as go build makes it, for the peak tests.
func builtBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "agentfmt-built-"); built.err != nil {
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

// TestMain is agentfmt itself when the test binary is started as
// "agentfmt" (see hostileBinary); else it runs the tests and removes the
// link when they are done.
func TestMain(m *testing.M) {
	if name := filepath.Base(os.Args[0]); strings.TrimSuffix(name, filepath.Ext(name)) == "agentfmt" {
		os.Exit(Main())
	}
	flag.Parse()
	moreParallel()
	code := m.Run()
	for _, dir := range []string{linked.dir, built.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	testmain.Exit(code)
}

// moreParallel lets four times as many parallel tests run at once as
// there are CPUs (go test's -parallel is the number of CPUs), unless the
// command line says how many: most of this package's tests spend their
// time waiting — on fake agents, on followed files, on pipes — and at the
// default a waiting test holds a CPU's slot. The slow run (AGENTFMT_SLOW)
// keeps the default: its tests are heavy, and timed by tmux.
func moreParallel() {
	if testenv.SlowEnabled() {
		return
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
}
