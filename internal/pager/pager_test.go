package pager

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newTest(command string) (*Pager, *lockedBuffer, *[]string) {
	out := &lockedBuffer{}
	var warned []string
	pg := New(Config{Command: command, Stdout: out, Direct: out, Stderr: io.Discard,
		Warn:    func(format string, args ...any) { warned = append(warned, fmt.Sprintf(format, args...)) },
		Environ: []string{"PATH=/usr/bin:/bin"}, Width: 20, Height: 5})
	return pg, out, &warned
}

// Output shorter than the screen goes to the terminal as it is: no pager
// starts (this one does not exist, and nothing says so).
func TestShortOutputNoPager(t *testing.T) {
	t.Parallel()
	pg, out, warned := newTest("no-such-pager-agentfmt")
	io.WriteString(pg, "one\ntwo\n")
	if err := pg.Close(); err != nil {
		t.Fatal(err)
	}
	if out.String() != "one\ntwo\n" || len(*warned) > 0 {
		t.Errorf("out %q, warned %q", out.String(), *warned)
	}
}

// A long line counts the rows it wraps to; a pager that fails (its
// status) has shown nothing: what it was given, and the rest, go to the
// terminal, and the failure is said.
func TestFailingPagerOutputFollows(t *testing.T) {
	t.Parallel()
	pg, out, warned := newTest("cat >/dev/null; exit 3")
	long := strings.Repeat("x", 100) + "\n" // five rows of 20 cells
	io.WriteString(pg, long)
	io.WriteString(pg, "after\n")
	if err := pg.Close(); err != nil {
		t.Fatal(err)
	}
	if out.String() != long+"after\n" {
		t.Errorf("out %q", out.String())
	}
	if len(*warned) != 1 || !strings.Contains((*warned)[0], "failed") {
		t.Errorf("warned %q", *warned)
	}
}
