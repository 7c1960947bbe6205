package cmd

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
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

func TestVersionAndHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--version"}, {"--help"}, {"-h"}, {"demo", "--help"}} {
		r := cli{args: args}.run(t)
		if r.code != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
		if r.stdout == "" {
			t.Errorf("%v: printed nothing", args)
		}
	}
	r := cli{args: []string{"--version"}}.run(t)
	if !strings.HasPrefix(r.stdout, "agentfmt ") {
		t.Errorf("--version printed %q", r.stdout)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	cases := [][]string{
		{"--no-such-flag"},
		{"--format", "yaml"},
		{"-o", "xml"},
		{"--color", "sometimes"},
		{"--thinking", "loud"},
		{"--tools", "all"},
		{"--agent", "chatgpt"},
		{"--ci", "jenkins"},
		{"--summary", "maybe"},
		{"--tool-lines", "-1"},
		{"--tool-lines", "many"},
		{"--width", "-3"},
		{"--max-line", "0"},
		{"--sentences"},
		{"--until", ""},
		{"demo", "--speed", "0"},
	}
	for _, args := range cases {
		r := cli{args: args}.run(t)
		if r.code != ExitUsage {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, r.code, r.stderr)
		}
		if !strings.Contains(r.stderr, "agentfmt --help") {
			t.Errorf("%v: no usage hint in %q", args, r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("%v: wrote to stdout: %q", args, r.stdout)
		}
	}
}

func TestMissingFileIsOneLine(t *testing.T) {
	t.Parallel()
	r := cli{args: []string{"/no/such/file.jsonl"}}.run(t)
	if r.code == 0 {
		t.Fatal("exit 0 for a missing file")
	}
	if strings.Count(r.stderr, "\n") != 1 || strings.Contains(r.stderr, "Usage") {
		t.Errorf("want one line, no usage: %q", r.stderr)
	}
}

func TestAgentFlagAcceptsEveryAgent(t *testing.T) {
	t.Parallel()
	for _, a := range []string{"auto", "claude", "codex", "gemini", "opencode", "cursor", "acp", "cline"} {
		r := cli{args: []string{"--agent", a, "-o", "json"}, stdin: strings.NewReader("")}.run(t)
		if r.code == ExitUsage {
			t.Errorf("--agent %s rejected: %s", a, r.stderr)
		}
	}
}

func TestRawLinesPassThrough(t *testing.T) {
	t.Parallel()
	in := "hello from a banner\nnpm WARN something\n"
	r := cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(in)}.run(t)
	for _, want := range []string{"hello from a banner\n", "npm WARN something\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("raw line %q missing from %q", want, r.stdout)
		}
	}
	if r.code != ExitIncomplete {
		t.Errorf("exit %d, want 3 (no run)", r.code)
	}
}

func TestStrictRejectsNonJSON(t *testing.T) {
	t.Parallel()
	r := cli{args: []string{"--strict", "-o", "plain"}, stdin: strings.NewReader("not json\n")}.run(t)
	if r.code != ExitDataErr {
		t.Errorf("exit %d, want 65", r.code)
	}
	if !strings.Contains(r.stderr, "line 1") {
		t.Errorf("no line number in %q", r.stderr)
	}
}

func TestInvalidJSONShownWithNotice(t *testing.T) {
	t.Parallel()
	r := cli{args: []string{"-o", "plain"}, stdin: strings.NewReader("{\"type\":\"assis")}.run(t)
	if !strings.Contains(r.stdout, `{"type":"assis`) {
		t.Errorf("partial line not shown: %q", r.stdout)
	}
	if !strings.Contains(r.stdout, "cut off") {
		t.Errorf("no notice: %q", r.stdout)
	}
	if r.code != ExitIncomplete {
		t.Errorf("exit %d, want 3", r.code)
	}
}

func TestColorDecision(t *testing.T) {
	t.Parallel()
	esc := func(r cliResult) bool { return strings.Contains(r.stdout, "\x1b[") }
	in := "banner\n{\"type\":\"unknown_thing\"}\n"
	cases := []struct {
		name string
		c    cli
		want bool
	}{
		{"pipe", cli{args: []string{"-o", "plain"}}, false},
		{"tty", cli{args: []string{"-o", "plain"}, tty: true}, true},
		{"always", cli{args: []string{"-o", "plain", "--color", "always"}}, true},
		{"never on tty", cli{args: []string{"-o", "plain", "--color", "never"}, tty: true}, false},
		{"NO_COLOR", cli{args: []string{"-o", "plain"}, tty: true, env: map[string]string{"NO_COLOR": "1"}}, false},
		{"NO_COLOR empty", cli{args: []string{"-o", "plain"}, tty: true, env: map[string]string{"NO_COLOR": ""}}, true},
		{"CLICOLOR=0", cli{args: []string{"-o", "plain"}, tty: true, env: map[string]string{"CLICOLOR": "0"}}, false},
		{"TERM=dumb", cli{args: []string{"-o", "plain"}, tty: true, env: map[string]string{"TERM": "dumb"}}, false},
		{"CLICOLOR_FORCE", cli{args: []string{"-o", "plain"}, env: map[string]string{"CLICOLOR_FORCE": "1"}}, true},
		{"FORCE_COLOR", cli{args: []string{"-o", "plain"}, env: map[string]string{"FORCE_COLOR": "1"}}, true},
		{"FORCE_COLOR=0", cli{args: []string{"-o", "plain"}, env: map[string]string{"FORCE_COLOR": "0"}}, false},
		{"NO_COLOR beats FORCE_COLOR", cli{args: []string{"-o", "plain"}, env: map[string]string{"NO_COLOR": "1", "FORCE_COLOR": "1"}}, false},
		{"flag beats NO_COLOR", cli{args: []string{"-o", "plain", "--color", "always"}, env: map[string]string{"NO_COLOR": "1"}}, true},
	}
	for _, c := range cases {
		c.c.stdin = strings.NewReader(in)
		if got := esc(c.c.run(t)); got != c.want {
			t.Errorf("%s: colour %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDefaultFormat(t *testing.T) {
	t.Parallel()
	in := "banner\n"
	tty := cli{stdin: strings.NewReader(in), tty: true}.run(t)
	pipe := cli{stdin: strings.NewReader(in)}.run(t)
	if !strings.Contains(tty.stdout, "\x1b[") {
		t.Errorf("terminal output is not pretty: %q", tty.stdout)
	}
	if strings.Contains(pipe.stdout, "\x1b") {
		t.Errorf("pipe output has escapes: %q", pipe.stdout)
	}
}

func TestTeeCopiesEveryByte(t *testing.T) {
	t.Parallel()
	in := "\xef\xbb\xbfbanner\r\n{\"type\":\"x\"}\n\x00\x01\xff not json\n{\"cut"
	path := filepath.Join(t.TempDir(), "raw.log")
	r := cli{args: []string{"-o", "plain", "--tee", path}, stdin: strings.NewReader(in)}.run(t)
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != in {
		t.Errorf("tee copy differs:\n got %q\nwant %q", got, in)
	}
	if r.code != ExitIncomplete {
		t.Errorf("exit %d", r.code)
	}
}

func TestTeeBadPath(t *testing.T) {
	t.Parallel()
	r := cli{args: []string{"--tee", "/no/such/dir/x.log"}, stdin: strings.NewReader("")}.run(t)
	if r.code == 0 || !strings.Contains(r.stderr, "--tee") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
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

func TestFilesInOrderAndStdinDash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := filepath.Join(dir, "a.log")
	b := filepath.Join(dir, "b.log")
	os.WriteFile(a, []byte("first file\n"), 0o644)
	os.WriteFile(b, []byte("second file\n"), 0o644)
	r := cli{args: []string{"-o", "plain", a, "-", b}, stdin: strings.NewReader("from stdin\n")}.run(t)
	i, j, k := strings.Index(r.stdout, "first file"), strings.Index(r.stdout, "from stdin"), strings.Index(r.stdout, "second file")
	if i < 0 || j < i || k < j {
		t.Errorf("order wrong: %q", r.stdout)
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

func TestMaxLineSkipsWithNotice(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("x", 5000) + "\nafter the long line\n"
	r := cli{args: []string{"-o", "plain", "--max-line", "1000"}, stdin: strings.NewReader(in)}.run(t)
	if !strings.Contains(r.stdout, "skipped") || !strings.Contains(r.stdout, "after the long line") {
		t.Errorf("got %q", r.stdout)
	}
	if strings.Contains(r.stdout, "xxxxxxxxxx") {
		t.Errorf("the skipped line was printed")
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

// TestGeminiJSONModePrettyPrinted: gemini --output-format json prints one
// pretty-printed object; it is read whole, shown, and its status is the exit.
func TestGeminiJSONModePrettyPrinted(t *testing.T) {
	t.Parallel()
	in := "{\n  \"response\": \"The answer is 42.\",\n  \"stats\": {\n    \"models\": {},\n    \"tools\": {\"totalCalls\": 0}\n  }\n}\n"
	r := cli{args: []string{"-o", "text"}, stdin: strings.NewReader(in)}.run(t)
	if r.code != 0 || r.stdout != "The answer is 42.\n" {
		t.Errorf("exit %d, output %q", r.code, r.stdout)
	}
}

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
