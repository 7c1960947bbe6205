package cmd

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/agentcli"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
)

// fakeAgent is a PATH holding small shell scripts that play an agent: each
// records its arguments (one a line, in $FAKE_DIR/args), then does what
// $FAKE_MODE says.
const fakeAgentScript = `#!/bin/sh
printf '%s\n' "$@" > "$FAKE_DIR/args.tmp" && mv "$FAKE_DIR/args.tmp" "$FAKE_DIR/args"
case "$FAKE_MODE" in
capture) cat "$FAKE_CAPTURE" ;;
stderr) echo "warning: \033[31mcolour\033[0m from the agent" >&2; cat "$FAKE_CAPTURE"; echo "done talking" >&2 ;;
stdin) cat ;;
die) echo "Error: not logged in" >&2; exit 2 ;;
die-after-text) head -3 "$FAKE_CAPTURE"; exit 1 ;;
killed) head -3 "$FAKE_CAPTURE"; kill -9 $$ ;;
reject) echo "error: unknown option '--include-partial-messages'" >&2; exit 1 ;;
plain) echo "Hello, I am a plain text answer." ;;
interleave)
	head -14 "$FAKE_CAPTURE"; echo "warn: one" >&2; sleep 0.3
	sed -n '15,27p' "$FAKE_CAPTURE"; echo "warn: two" >&2; sleep 0.3
	tail -n +28 "$FAKE_CAPTURE" ;;
chatty)
	i=0
	while [ $i -lt 40 ]; do cat "$FAKE_CAPTURE" || exit 9; echo "stderr line $i" >&2; i=$((i+1)); done
	: > "$FAKE_DIR/finished" ;;
wait)
	trap 'echo "got INT" >&2; exit 130' INT
	trap 'echo "got TERM" >&2; exit 143' TERM
	trap 'echo "got HUP" >&2; : > "$FAKE_DIR/got-HUP"; exit 129' HUP
	trap 'echo "got QUIT" >&2; : > "$FAKE_DIR/got-QUIT"; exit 131' QUIT
	head -3 "$FAKE_CAPTURE"
	: > "$FAKE_DIR/ready"
	while :; do sleep 0.05; done ;;
esac
`

type fakeRun struct {
	dir     string
	mode    string
	capture string
	stdin   io.Reader
	signals chan os.Signal
	tty     bool
	// foreground: agentfmt has the terminal (the agent shares its
	// process group).
	foreground bool
	// grace is Env.DrainGrace (0: its default).
	grace time.Duration
}

// newFakeRun puts fake agents for every name in a temporary PATH.
func newFakeRun(t *testing.T, mode, capture string) *fakeRun {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// One script, written once; every name is a link to it (a link opens
	// no file that a concurrent fork could inherit, see writeProgram).
	script := filepath.Join(bin, "mytool")
	if err := writeProgram(script, []byte(fakeAgentScript)); err != nil {
		t.Fatal(err)
	}
	for _, s := range agentcli.Specs {
		for _, n := range s.Names {
			if err := os.Link(script, filepath.Join(bin, n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return &fakeRun{dir: dir, mode: mode, capture: capture}
}

func (f *fakeRun) run(t *testing.T, args ...string) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	path := filepath.Join(f.dir, "bin") + string(os.PathListSeparator) + os.Getenv("PATH")
	vars := map[string]string{"PATH": path, "FAKE_DIR": f.dir, "FAKE_MODE": f.mode, "FAKE_CAPTURE": f.capture}
	env := &Env{
		Stdin:  f.stdin,
		Stdout: &out,
		Stderr: &errb,
		Getenv: func(k string) string { return vars[k] },
		Environ: func() []string {
			e := os.Environ()
			for k, v := range vars {
				e = append(e, k+"="+v)
			}
			return e
		},
		IsTerminal: func(w io.Writer) bool { return f.tty && w == io.Writer(&out) },
		Now:        func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
		Tick:       make(chan time.Time),
		Signals:    f.signals,
		Foreground: func() bool { return f.foreground },
		DrainGrace: f.grace,
	}
	code := Run(args, env)
	return cliResult{out.String(), errb.String(), code}
}

// args returns what the fake agent was given.
func (f *fakeRun) args(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.dir, "args"))
	if err != nil {
		t.Fatalf("the agent did not run: %v", err)
	}
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func corpusFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", "corpus", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	abs, _ := filepath.Abs(p)
	return abs
}

// Every agent of agentcli.Specs: the flags it is given, and its stream
// rendered exactly as when piped into agentfmt.
func TestRunEveryAgent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args    []string
		want    []string
		capture string
	}{
		{[]string{"claude", "-p", "fix it"}, []string{"-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages", "-p", "fix it"}[1:], "claude/09-yoke-partial-text-deltas-opus-4-6.jsonl"},
		{[]string{"claude", "fix it"}, []string{"-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages", "fix it"}, "claude/03-minimal-text-only-v2.1.7.jsonl"},
		{[]string{"claude", "--print", "--verbose", "--output-format=stream-json", "x"}, []string{"--include-partial-messages", "--print", "--verbose", "--output-format=stream-json", "x"}, "claude/03-minimal-text-only-v2.1.7.jsonl"},
		{[]string{"qwen", "-p", "fix it"}, []string{"--output-format", "stream-json", "--verbose", "--include-partial-messages", "-p", "fix it"}, "qwen/01-multica-0.20.0-thinking-tool-use-redacted.jsonl"},
		{[]string{"codex", "add a flag"}, []string{"exec", "--json", "add a flag"}, "codex/01-vincent-success-agent-message.jsonl"},
		{[]string{"codex", "exec", "add a flag"}, []string{"exec", "--json", "add a flag"}, "codex/02-vincent-command-execution.jsonl"},
		{[]string{"codex", "-m", "o3", "exec", "--experimental-json", "x"}, []string{"-m", "o3", "exec", "--experimental-json", "x"}, "codex/01-vincent-success-agent-message.jsonl"},
		{[]string{"gemini", "-p", "explain"}, []string{"--output-format", "stream-json", "-p", "explain"}, "gemini/03-agentcmd-v0.11-read-file.jsonl"},
		{[]string{"gemini", "-o", "stream-json", "-p", "explain"}, []string{"-o", "stream-json", "-p", "explain"}, "gemini/02-agentcmd-v0.11-say-hello.jsonl"},
		{[]string{"opencode", "update deps"}, []string{"run", "--format", "json", "update deps"}, "opencode/04-ralph-two-bash-tools.jsonl"},
		{[]string{"opencode", "run", "update deps"}, []string{"run", "--format", "json", "update deps"}, "opencode/03-ralph-greeting-text-only.jsonl"},
		{[]string{"kilo", "run", "x"}, []string{"run", "--format", "json", "x"}, "opencode/03-ralph-greeting-text-only.jsonl"},
		{[]string{"cursor-agent", "fix it"}, []string{"-p", "--output-format", "stream-json", "--stream-partial-output", "fix it"}, "cursor/05-multica-2026.07.20-read-shell-edit-thinking.jsonl"},
		{[]string{"copilot", "-p", "fix it", "--allow-all-tools"}, []string{"--output-format", "json", "-p", "fix it", "--allow-all-tools"}, "copilot/01-covencave-1.0.70-sanitized-bash-tool-deltas-result.jsonl"},
		{[]string{"agy", "-p", "list files"}, []string{"--output-format", "stream-json", "-p", "list files"}, "antigravity/05-gobby-agy-1.1.18-run-command-text-delta-active-done-success.jsonl"},
		{[]string{"agy", "-output-format=stream-json", "-p", "x"}, []string{"-output-format=stream-json", "-p", "x"}, "antigravity/03-agentjournal-agy-1.1.17-clean-list-dir-view-file-success.jsonl"},
		{[]string{"amp", "-x", "what is 2+2?"}, []string{"-x", "what is 2+2?", "--stream-json"}, "claude/03-minimal-text-only-v2.1.7.jsonl"},
		{[]string{"amp", "-x", "q", "--", "-v"}, []string{"-x", "q", "--stream-json", "--", "-v"}, "claude/03-minimal-text-only-v2.1.7.jsonl"},
		{[]string{"pi", "fix the test"}, []string{"--mode", "json", "fix the test"}, "pi/01-causeflow-openai-codex-gpt-5.5-usage-limit-error-agent-end.jsonl"},
		{[]string{"pi", "--mode", "json", "x"}, []string{"--mode", "json", "x"}, "pi/01-causeflow-openai-codex-gpt-5.5-usage-limit-error-agent-end.jsonl"},
		{[]string{"codebuddy", "reply OK", "-y"}, []string{"-p", "--output-format", "json", "reply OK", "-y"}, "codebuddy/01-aspipe-output-format-json-array-responses-items-reasoning-result.jsonl"},
		{[]string{"cbc", "-p", "x"}, []string{"--output-format", "json", "-p", "x"}, "codebuddy/01-aspipe-output-format-json-array-responses-items-reasoning-result.jsonl"},
		{[]string{"openclaw", "-m", "hi", "--local"}, []string{"agent", "--json", "-m", "hi", "--local"}, "openclaw/01-multica-2026.5.5-agent-json-payloads-meta-system-prompt-report.json"},
		{[]string{"openclaw", "agent", "--json", "-m", "hi"}, []string{"agent", "--json", "-m", "hi"}, "openclaw/01-multica-2026.5.5-agent-json-payloads-meta-system-prompt-report.json"},
		{[]string{"droid", "--auto", "low", "fix it"}, []string{"exec", "--output-format", "stream-json", "--auto", "low", "fix it"}, "droid/03-vibekanban-oct2025-insufficient-perms-tool-cancelled-error-cli.jsonl"},
		{[]string{"droid", "exec", "--output-format=stream-json", "x"}, []string{"exec", "--output-format=stream-json", "x"}, "droid/03-vibekanban-oct2025-insufficient-perms-tool-cancelled-error-cli.jsonl"},
		{[]string{"grok", "-p", "list files"}, []string{"--output-format", "streaming-json", "-p", "list files"}, "grok/02-agentjournal-grok-1.0.5-streaming-json-bash-inprogress-updates-byte-array-output-read.jsonl"},
		// Not an agent agentfmt knows: run as it is.
		{[]string{"mytool", "--flag", "x"}, []string{"--flag", "x"}, "claude/03-minimal-text-only-v2.1.7.jsonl"},
	}
	for i, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Parallel()
			capture := corpusFile(t, c.capture)
			f := newFakeRun(t, "capture", capture)
			// Every format for the first agent, plain for the others (all
			// of them in the slow run).
			formats := []string{"plain", "json", "text", "markdown"}
			if i > 0 {
				formats = testenv.Cases(formats, 1)
			}
			for _, format := range formats {
				r := f.run(t, append([]string{"-o", format, "run"}, c.args...)...)
				if got := f.args(t); strings.Join(got, "\x00") != strings.Join(c.want, "\x00") {
					t.Fatalf("the agent got %q, want %q", got, c.want)
				}
				in, _ := os.ReadFile(capture)
				piped := cli{args: []string{"-o", format}, stdin: bytes.NewReader(in)}.run(t)
				if r.stdout != piped.stdout || r.code != piped.code {
					t.Errorf("-o %s: run gave exit %d and\n%s\npiped: exit %d and\n%s", format, r.code, r.stdout, piped.code, piped.stdout)
				}
				if r.stderr != piped.stderr {
					t.Errorf("-o %s: stderr %q, piped %q", format, r.stderr, piped.stderr)
				}
			}
		})
	}
}

// The agent's stderr is shown in place: a sanitised line of its own in
// plain and pretty (at full strength, never dimmed), on agentfmt's stderr
// for the data formats.
func TestRunShowsAgentStderr(t *testing.T) {
	t.Parallel()
	f := newFakeRun(t, "stderr", corpusFile(t, "claude/03-minimal-text-only-v2.1.7.jsonl"))
	r := f.run(t, "-o", "plain", "run", "claude", "-p", "x")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "warning: ␛[31mcolour␛[0m from the agent\n") || strings.Contains(r.stdout, "\x1b") {
		t.Errorf("plain: agent stderr not shown as a sanitised line:\n%q", r.stdout)
	}
	if strings.Index(r.stdout, "done talking") < strings.Index(r.stdout, "warning:") {
		t.Errorf("plain: stderr lines out of order:\n%s", r.stdout)
	}
	if r.stderr != "" {
		t.Errorf("plain: agentfmt's stderr %q", r.stderr)
	}

	f.tty = true
	r = f.run(t, "-o", "pretty", "--color", "always", "run", "claude", "-p", "x")
	// (Where it stands against the stream's first lines depends on which
	// of the agent's two pipes is read first.)
	if i := strings.Index(r.stdout, "warning: ␛[31mcolour␛[0m from the agent\n"); i < 0 ||
		strings.Contains(r.stdout[strings.LastIndexByte(r.stdout[:i], '\n')+1:i], "\x1b[2m") {
		t.Errorf("pretty: agent stderr not a line at full strength:\n%q", r.stdout)
	}
	if strings.Contains(r.stdout, "\x1b[31m") {
		t.Errorf("pretty: the agent's colour went through:\n%q", r.stdout)
	}
	f.tty = false

	r = f.run(t, "-o", "json", "run", "claude", "-p", "x")
	// On agentfmt's stderr too the agent's words are untrusted text: its
	// escape sequences are shown, not sent to the terminal (issue 16).
	if strings.Contains(r.stdout, "warning") || !strings.Contains(r.stderr, "warning: ␛[31mcolour␛[0m from the agent\n") ||
		strings.Contains(r.stderr, "\x1b") {
		t.Errorf("json: stdout %q\nstderr %q", r.stdout, r.stderr)
	}
}

// An agent that dies without a result: its own failure is the status.
func TestRunAgentDies(t *testing.T) {
	t.Parallel()
	capture := corpusFile(t, "claude/09-yoke-partial-text-deltas-opus-4-6.jsonl")
	f := newFakeRun(t, "die", capture)
	r := f.run(t, "-o", "plain", "run", "claude", "-p", "x")
	if r.code != ExitFailed {
		t.Errorf("exit %d, want 1 (the agent exited 2 without a result)", r.code)
	}
	// It ends on a failure line naming the exit status, not on a stream
	// cut off; the agent's own words above it.
	if !strings.Contains(r.stdout, "Error: not logged in\n") || !strings.HasSuffix(r.stdout, "── ✗ failed: claude exited with status 2 without a result\n") ||
		strings.Contains(r.stdout, "incomplete") {
		t.Errorf("output:\n%s", r.stdout)
	}
	r = f.run(t, "-o", "plain", "--ci", "github", "run", "claude", "-p", "x")
	if !strings.Contains(r.stdout, "::error::agent run failed: claude exited with status 2 without a result\n") {
		t.Errorf("github: no error annotation:\n%s", r.stdout)
	}
	f.tty = true
	r = f.run(t, "-o", "pretty", "--color", "always", "run", "claude", "-p", "x")
	f.tty = false
	if !strings.HasPrefix(r.stdout, "Error: not logged in\n") || !strings.Contains(r.stdout, "── \x1b[31m✗ failed: claude exited with status 2 without a result") ||
		strings.Contains(r.stdout, "incomplete") {
		t.Errorf("pretty: the agent's error dimmed or no red failure line:\n%q", r.stdout)
	}
	for _, format := range []string{"markdown", "html"} {
		r = f.run(t, "-o", format, "run", "claude", "-p", "x")
		if !strings.Contains(r.stdout, "Failed") || !strings.Contains(r.stdout, "claude exited with status 2 without a result") ||
			strings.Contains(r.stdout, "Incomplete") {
			t.Errorf("%s: not shown as failed:\n%s", format, r.stdout)
		}
	}
	r = f.run(t, "-o", "text", "run", "claude", "-p", "x")
	if r.code != ExitFailed || r.stderr != "Error: not logged in\nagentfmt: claude exited with status 2 without a result (exit 1)\n" {
		t.Errorf("-o text: exit %d, stderr %q", r.code, r.stderr)
	}

	f.mode = "die-after-text"
	r = f.run(t, "-o", "plain", "run", "claude", "-p", "x")
	if r.code != ExitFailed {
		t.Errorf("died after some text: exit %d, want 1", r.code)
	}

	f.mode = "killed"
	r = f.run(t, "-o", "plain", "run", "claude", "-p", "x")
	if r.code != 128+9 || !strings.Contains(r.stdout, "killed by signal 9") {
		t.Errorf("killed: exit %d, want 137:\n%s", r.code, r.stdout)
	}

	// An agent that ends well without a result still leaves the stream cut off.
	f = newFakeRun(t, "capture", capture)
	trunc := filepath.Join(f.dir, "cut.jsonl")
	b, _ := os.ReadFile(capture)
	os.WriteFile(trunc, b[:len(b)/2], 0o644)
	f.capture = trunc
	if r := f.run(t, "-o", "plain", "run", "claude", "-p", "x"); r.code != ExitIncomplete {
		t.Errorf("cut-off stream, agent exit 0: exit %d, want 3", r.code)
	}
}

// An agent too old for a flag agentfmt added: said plainly.
func TestRunRejectedFlag(t *testing.T) {
	t.Parallel()
	f := newFakeRun(t, "reject", "")
	r := f.run(t, "-o", "plain", "run", "claude", "-p", "x")
	if r.code != ExitFailed {
		t.Errorf("exit %d", r.code)
	}
	if !strings.Contains(r.stdout, "unknown option '--include-partial-messages'") {
		t.Errorf("the agent's message is not shown:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "claude rejected --include-partial-messages, which 'agentfmt run' added") {
		t.Errorf("no explanation: %q", r.stderr)
	}
	// A flag the user gave themselves is not agentfmt's to explain.
	r = f.run(t, "-o", "plain", "run", "claude", "-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages", "x")
	if strings.Contains(r.stderr, "rejected") {
		t.Errorf("explained a flag agentfmt did not add: %q", r.stderr)
	}
}

func TestRunPassesStdin(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile(corpusFile(t, "codex/01-vincent-success-agent-message.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeRun(t, "stdin", "")
	f.stdin = bytes.NewReader(in)
	r := f.run(t, "-o", "json", "run", "codex", "exec", "-")
	piped := cli{args: []string{"-o", "json"}, stdin: bytes.NewReader(in)}.run(t)
	if r.code != piped.code || r.stdout != piped.stdout || r.code != 0 {
		t.Errorf("exit %d (piped %d):\n%s", r.code, piped.code, r.stdout)
	}
}

// Ctrl-C, SIGTERM, SIGHUP and SIGQUIT reach the agent; agentfmt waits for
// it, shows what it said, and exits 128+N.
func TestRunForwardsSignals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sig  os.Signal
		want int
		said string
	}{
		{os.Interrupt, ExitInterrupted, "got INT"},
		{syscall.SIGTERM, ExitTerminated, "got TERM"},
		{syscall.SIGHUP, ExitHangup, "got HUP"},
		{syscall.SIGQUIT, ExitQuit, "got QUIT"},
	} {
		f := newFakeRun(t, "wait", corpusFile(t, "claude/09-yoke-partial-text-deltas-opus-4-6.jsonl"))
		f.signals = make(chan os.Signal, 1)
		done := make(chan cliResult, 1)
		go func() { done <- f.run(t, "-o", "plain", "run", "claude", "-p", "x") }()
		waitFile(t, filepath.Join(f.dir, "ready"))
		f.signals <- c.sig
		var r cliResult
		select {
		case r = <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%v: agentfmt did not end", c.sig)
		}
		if r.code != c.want {
			t.Errorf("%v: exit %d, want %d", c.sig, r.code, c.want)
		}
		if !strings.Contains(r.stdout, c.said+"\n") {
			t.Errorf("%v: the agent did not get the signal:\n%s", c.sig, r.stdout)
		}
		if !strings.Contains(r.stdout, "interrupted") {
			t.Errorf("%v: no interrupted footer:\n%s", c.sig, r.stdout)
		}
	}
}

func waitFile(t *testing.T, path string) {
	t.Helper()
	for i := 0; i < 2000; i++ {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", path)
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	f := newFakeRun(t, "capture", "")
	r := f.run(t, "run", "no-such-agent-xyz")
	if r.code != ExitNotFound || !strings.Contains(r.stderr, "no-such-agent-xyz: not found on PATH") {
		t.Errorf("missing agent: exit %d, stderr %q", r.code, r.stderr)
	}
	// Found but not something the system can run: no footer on stdout.
	bad := filepath.Join(f.dir, "bin", "badagent")
	if err := writeProgram(bad, []byte("\x7fELF\x00garbage")); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"plain", "pretty", "json"} {
		f.tty = format == "pretty"
		r = f.run(t, "-o", format, "run", "badagent")
		if r.code != ExitNotFound || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("-o %s, unrunnable agent: exit %d, stdout %q, stderr %q", format, r.code, r.stdout, r.stderr)
		}
	}
	f.tty = false
	r = f.run(t, "run")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "run needs an AGENT") {
		t.Errorf("no agent: exit %d, stderr %q", r.code, r.stderr)
	}
	r = f.run(t, "--follow", "run", "claude")
	if r.code != ExitUsage {
		t.Errorf("--follow: exit %d", r.code)
	}
	// Plain text from the agent: the hint names what turned the JSON off.
	f.mode = "plain"
	r = f.run(t, "-o", "plain", "run", "claude", "-p", "x", "--output-format", "text")
	if !strings.Contains(r.stderr, "claude printed no JSON") {
		t.Errorf("no hint: %q", r.stderr)
	}
}

// --tee under run copies the agent's stdout byte for byte.
func TestRunTee(t *testing.T) {
	t.Parallel()
	capture := corpusFile(t, "claude/09-yoke-partial-text-deltas-opus-4-6.jsonl")
	f := newFakeRun(t, "stderr", capture)
	tee := filepath.Join(f.dir, "tee.jsonl")
	r := f.run(t, "-o", "json", "--tee", tee, "run", "claude", "-p", "x")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	got, _ := os.ReadFile(tee)
	want, _ := os.ReadFile(capture)
	if !bytes.Equal(got, want) {
		t.Errorf("tee holds %d bytes, the agent wrote %d", len(got), len(want))
	}
}

// 'agentfmt --tee f run AGENT | head -1': the agent writes all it has
// (stdout and stderr) without a broken pipe, f holds all of its stdout,
// and agentfmt exits 141.
func TestRunTeeAfterStdoutCloses(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := hostileBinary(t)
	capture := corpusFile(t, "claude/09-yoke-partial-text-deltas-opus-4-6.jsonl")
	f := newFakeRun(t, "chatty", capture)
	one, _ := os.ReadFile(capture)
	want := bytes.Repeat(one, 40) // the chatty agent's rounds: far more than a pipe holds
	for _, format := range []string{"plain", "json"} {
		os.Remove(filepath.Join(f.dir, "finished"))
		tee := filepath.Join(f.dir, "tee-"+format)
		c := exec.Command("bash", "-c", `{ "$BIN" -o "$FORMAT" --tee "$TEE" run claude -p x; echo "agentfmt=$?" > "$FAKE_DIR/status"; } | head -1 >/dev/null`)
		c.Env = append(os.Environ(), "BIN="+bin, "FORMAT="+format, "TEE="+tee, "FAKE_DIR="+f.dir, "FAKE_MODE=chatty", "FAKE_CAPTURE="+capture,
			"PATH="+filepath.Join(f.dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v %s", format, err, out)
		}
		if _, err := os.Stat(filepath.Join(f.dir, "finished")); err != nil {
			t.Errorf("%s: the agent did not finish writing (broken pipe?)", format)
		}
		if got, _ := os.ReadFile(tee); !bytes.Equal(got, want) {
			t.Errorf("%s: tee holds %d of %d bytes", format, len(got), len(want))
		}
		if b, _ := os.ReadFile(filepath.Join(f.dir, "status")); string(b) != "agentfmt=141\n" {
			t.Errorf("%s: %q", format, b)
		}
	}
}

// In pretty, the agent's stderr goes above the live region (a running
// tool call, streaming text) without breaking it: on the final screen
// each line is there once, the answer once, and nothing but the allowed
// sequences was written.
func TestRunStderrKeepsLiveRegion(t *testing.T) {
	t.Parallel()
	f := newFakeRun(t, "interleave", corpusFile(t, "claude/10-roma-partial-thinking-input-json-bash-task-2.1.220.jsonl"))
	f.tty = true
	r := f.run(t, "-o", "pretty", "--color", "always", "--width", "80", "run", "claude", "-p", "x")
	if err := vtcheck.Sequences([]byte(r.stdout)); err != nil {
		t.Fatal(err)
	}
	rows := vtcheck.Screen([]byte(r.stdout), 80)
	for _, want := range []string{"warn: one", "warn: two", "The command printed"} {
		if n := vtcheck.Count(rows, want); n != 1 {
			t.Errorf("%q %d times on the screen:\n%s", want, n, strings.Join(rows, "\n"))
		}
	}
	if err := vtcheck.InOrder(rows, []string{"warn: one", "warn: two", "The command printed"}); err != nil {
		t.Errorf("%v:\n%s", err, strings.Join(rows, "\n"))
	}
}
