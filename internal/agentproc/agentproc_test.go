package agentproc

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

func start(t *testing.T, script string, warned *[]string) *Process {
	t.Helper()
	p, err := Start(Config{Name: "agent", Path: "/bin/sh", Args: []string{"sh", "-c", script}, Grace: time.Second, Group: true,
		Warn: func(format string, args ...any) { *warned = append(*warned, fmt.Sprintf(format, args...)) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// The agent's stdout is read, its stderr comes line by line (its head
// kept), and a non-zero exit without a result is its own failure.
func TestStartReadWait(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("runs /bin/sh")
	}
	var warned []string
	p := start(t, "echo out; echo 'Error: bad key' >&2; exit 3", &warned)
	out, _ := io.ReadAll(p.Stdout)
	var errs []string
	for {
		l, ok := p.Clock.Next(p.Stderr)
		if !ok {
			break
		}
		errs = append(errs, l)
	}
	p.Wait()
	if string(out) != "out\n" || strings.Join(errs, "|") != "Error: bad key" || !strings.Contains(p.Head(), "bad key") {
		t.Errorf("stdout %q, stderr %q, head %q", out, errs, p.Head())
	}
	if c, why := p.Failure(); c != 1 || !strings.Contains(why, "exited with status 3") {
		t.Errorf("failure %d %q", c, why)
	}
	if len(warned) > 0 {
		t.Errorf("warned %q", warned)
	}
}

// A process the agent left holding its output is waited for Grace after
// the agent's exit, then ended with its group, and that is said.
func TestHeldOutputEnded(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("runs /bin/sh")
	}
	var warned []string
	p := start(t, "sleep 60 & echo done", &warned)
	p.cfg.Grace = 50 * time.Millisecond
	p.Clock.left = p.cfg.Grace
	for {
		if _, ok := p.Clock.Next(p.Stderr); !ok {
			break
		}
	}
	p.Wait()
	if len(warned) != 1 || !strings.Contains(warned[0], "held its output open") {
		t.Errorf("warned %q", warned)
	}
}

// A command that cannot be started is a StartError (exit 127).
func TestStartError(t *testing.T) {
	t.Parallel()
	_, err := Start(Config{Name: "x", Path: "/nonexistent/agent", Args: []string{"agent"}})
	var se *StartError
	if !errors.As(err, &se) {
		t.Errorf("error %v, want a StartError", err)
	}
}
