package cmd

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cli runs the whole command in-process.
type cli struct {
	args  []string
	stdin io.Reader
	env   map[string]string
	tty   bool
	// width and height, when set, are the terminal's size.
	width, height int
	// dir, when set, is the current directory.
	dir string
}

type cliResult struct {
	stdout, stderr string
	code           int
}

func (c cli) run(t testing.TB) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		Stdin:  c.stdin,
		Stdout: &out,
		Stderr: &errb,
		Getenv: func(k string) string { return c.env[k] },
		IsTerminal: func(w io.Writer) bool {
			return c.tty && w == io.Writer(&out)
		},
		Now:      func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
		Tick:     make(chan time.Time),
		Scribble: true,
		// A child process (a pager) sees the process's environment with
		// the case's variables over it.
		Environ: func() []string {
			e := os.Environ()
			for k, v := range c.env {
				e = append(e, k+"="+v)
			}
			return e
		},
	}
	if c.height > 0 {
		env.TermSize = func(w io.Writer) (int, int, bool) {
			return c.width, c.height, c.tty && w == io.Writer(&out)
		}
	}
	if c.stdin == nil {
		env.Stdin = strings.NewReader("")
	}
	if c.dir != "" {
		env.Getwd = func() (string, error) { return c.dir, nil }
	}
	code := Run(c.args, quick(env))
	return cliResult{out.String(), errb.String(), code}
}

// closedWriter fails like a pipe whose reader went away.
type closedWriter struct{ n int }

func (w *closedWriter) Write(p []byte) (int, error) {
	if w.n <= 0 {
		return 0, syscall.EPIPE
	}
	w.n--
	return len(p), nil
}

func TestClosedStdoutIsQuiet(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	in := strings.Repeat("a raw line that goes on\n", 20000)
	env := &Env{Stdin: strings.NewReader(in), Stdout: &closedWriter{n: 1}, Stderr: &errb,
		Getenv: func(string) string { return "" }}
	code := Run([]string{"-o", "plain"}, env)
	if errb.Len() != 0 {
		t.Errorf("stderr: %q", errb.String())
	}
	if code != ExitPipe {
		t.Errorf("exit %d, want %d", code, ExitPipe)
	}
}

// signalReader blocks until the test sends a signal.
type blockingReader struct{ ch chan struct{} }

func (b blockingReader) Read([]byte) (int, error) { <-b.ch; return 0, io.EOF }

func TestInterruptExitCodes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sig  os.Signal
		code int
	}{{os.Interrupt, ExitInterrupted}, {syscall.SIGTERM, ExitTerminated}} {
		sig := make(chan os.Signal, 1)
		var out bytes.Buffer
		block := blockingReader{ch: make(chan struct{})}
		env := &Env{Stdin: block, Stdout: &out, Stderr: io.Discard, Getenv: func(string) string { return "" }, Signals: sig}
		sig <- c.sig
		code := Run([]string{"-o", "plain"}, env)
		close(block.ch)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d", c.sig, code, c.code)
		}
		if out.String() != "" {
			t.Errorf("%v: a run that never began has an end: %q", c.sig, out.String())
		}
	}
}

func TestReadErrorReported(t *testing.T) {
	t.Parallel()
	env := &Env{Stdin: errReader{}, Stdout: io.Discard, Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" }}
	if code := Run([]string{"-o", "plain"}, env); code == 0 {
		t.Errorf("exit 0 on a read error")
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

// TestTextAnswerSanitisedOnATerminal: -o text writes the answer as it is
// for a script, but never raw escape sequences to a terminal.
func TestTextAnswerSanitisedOnATerminal(t *testing.T) {
	t.Parallel()
	in := `{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/","tools":[],"claude_code_version":"2.1.207"}` + "\n" +
		`{"type":"result","subtype":"success","is_error":false,"result":"ok \u001b]0;pwn\u0007 done","num_turns":1}` + "\n"
	pipe := cli{args: []string{"-o", "text"}, stdin: strings.NewReader(in)}.run(t)
	if pipe.stdout != "ok \x1b]0;pwn\x07 done\n" {
		t.Errorf("pipe: %q", pipe.stdout)
	}
	tty := cli{args: []string{"-o", "text"}, stdin: strings.NewReader(in), tty: true}.run(t)
	if tty.stdout != "ok ␛]0;pwn␇ done\n" {
		t.Errorf("terminal: %q", tty.stdout)
	}
}

// writeProgram writes a program the tests run. No process may be forked
// while its file is open for writing: a child forked then holds the file
// open until it runs its own program, and running the new one fails with
// "text file busy" (ETXTBSY) meanwhile. syscall.ForkLock is what forks
// wait on.
func writeProgram(path string, content []byte) error {
	syscall.ForkLock.Lock()
	defer syscall.ForkLock.Unlock()
	return os.WriteFile(path, content, 0o755)
}
