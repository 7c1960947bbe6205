package cmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/spf13/pflag"
)

// Issue 14: what scripts and CI jobs trip over.

// -o text: the answer without its leading and trailing blank lines, its
// bytes otherwise as they are.
func TestTextTrimsBlankLines(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ answer, want string }{
		{"\n\n  \n  indented first\n\n\tlast  \n\n \n", "  indented first\n\n\tlast  \n"},
		{"one\r\ntwo\r\n\r\n", "one\r\ntwo\n"},
		{"\n\n", ""},
		{"plain", "plain\n"},
	} {
		r := cli{args: []string{"-o", "text"}, stdin: strings.NewReader(aRun(c.answer).String())}.run(t)
		if r.stdout != c.want {
			t.Errorf("answer %q: printed %q, want %q", c.answer, r.stdout, c.want)
		}
	}
}

// --until: the marker counts only as a token of its own at the beginning
// or end of the answer; words holding it and a mid-sentence marker stay.
func TestUntilTokenThroughCLI(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ marker, answer, text string }{
		{"done", "I abandoned the old approach; the Done callback is now done properly.", "I abandoned the old approach; the Done callback is now done properly.\n"},
		{"DONE", "Checked: TOOL_OK_DONE", "Checked: TOOL_OK_DONE\n"},
	} {
		r := cli{args: []string{"-o", "text", "--until", c.marker}, stdin: strings.NewReader(aRun(c.answer).String())}.run(t)
		if r.code != ExitUntil || r.stdout != c.text {
			t.Errorf("%q in %q: exit %d, printed %q", c.marker, c.answer, r.code, r.stdout)
		}
	}
	for _, c := range []struct{ marker, answer, text string }{
		{"DONE", "All checks pass.\n\nDONE", "All checks pass.\n"},
		{"done", "DONE — all checks pass.", "— all checks pass.\n"},
		{"<promise>COMPLETE</promise>", "Fixed.\n<promise>complete</promise>\n", "Fixed.\n"},
	} {
		r := cli{args: []string{"-o", "text", "--until", c.marker}, stdin: strings.NewReader(aRun(c.answer).String())}.run(t)
		if r.code != ExitOK || r.stdout != c.text {
			t.Errorf("%q in %q: exit %d, printed %q", c.marker, c.answer, r.code, r.stdout)
		}
	}
}

// `feeder | agentfmt --tee f | head -1`: f holds all of the input and the
// feeder sees no broken pipe; agentfmt exits 141.
func TestTeeAfterStdoutCloses(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := hostileBinary(t)
	dir := t.TempDir()
	var s hStream
	s.init()
	// 8 MB: every format's output is more than the pipes hold (agentfmt
	// grows its stdout pipe to 1 MB), so agentfmt meets the closed pipe
	// whatever the timing (with 2 MB, pretty's output could all fit in the
	// pipe before head exited, and agentfmt rightly exited 0).
	// (The lines as s.text writes them, written directly: encoding 32,000
	// maps was most of the test's own work.)
	for i := 0; i < 32000; i++ {
		s.n++
		fmt.Fprintf(&s.b, `{"message":{"content":[{"text":"line %d of a long answer that goes on for a while","type":"text"}],"id":"msg_%[1]d",`+
			`"model":"claude-sonnet-4-5","role":"assistant","stop_reason":null,"type":"message"},"parent_tool_use_id":null,"session_id":"s1","type":"assistant","uuid":"u%d"}`+"\n", i, s.n)
	}
	s.result(true, "")
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(s.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range testenv.Cases([]string{"plain", "json", "pretty"}, 1) {
		tee := filepath.Join(dir, "tee-"+format+".jsonl")
		script := `(cat "$IN"; echo "feeder=$?" > "$DIR/feeder") | { "$BIN" -o "$FORMAT" --tee "$TEE"; echo "agentfmt=$?" > "$DIR/agentfmt"; } | head -1 > /dev/null`
		c := exec.Command("bash", "-c", script)
		c.Env = append(os.Environ(), "IN="+in, "DIR="+dir, "BIN="+bin, "FORMAT="+format, "TEE="+tee)
		var errb bytes.Buffer
		c.Stderr = &errb
		if err := c.Run(); err != nil {
			t.Fatalf("%s: %v %s", format, err, errb.String())
		}
		if errb.Len() != 0 {
			t.Errorf("%s: stderr %q", format, errb.String())
		}
		got, _ := os.ReadFile(tee)
		want, _ := os.ReadFile(in)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: tee holds %d of %d bytes", format, len(got), len(want))
		}
		for file, want := range map[string]string{"feeder": "feeder=0\n", "agentfmt": "agentfmt=141\n"} {
			if b, _ := os.ReadFile(filepath.Join(dir, file)); string(b) != want {
				t.Errorf("%s: %s wrote %q, want %q", format, file, b, want)
			}
		}
	}
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// Colour is on in GitHub Actions and GitLab CI logs; NO_COLOR and --color
// still win.
func TestColourInCILogs(t *testing.T) {
	t.Parallel()
	in := aRun("Fine.").String()
	for _, c := range []struct {
		env  map[string]string
		args []string
		want bool
	}{
		{nil, nil, false},
		{map[string]string{"GITHUB_ACTIONS": "true"}, nil, true},
		{map[string]string{"GITLAB_CI": "true"}, nil, true},
		{map[string]string{"GITHUB_ACTIONS": "true", "NO_COLOR": "1"}, nil, false},
		{map[string]string{"GITLAB_CI": "true"}, []string{"--color", "never"}, false},
		{map[string]string{"GITHUB_ACTIONS": "true", "AGENTFMT_COLOR": "never"}, nil, false},
		{map[string]string{"GITHUB_ACTIONS": "true", "TERM": "dumb"}, nil, false},
	} {
		r := cli{args: append([]string{"-o", "plain"}, c.args...), stdin: strings.NewReader(in), env: c.env}.run(t)
		if got := sgr.MatchString(r.stdout); got != c.want {
			t.Errorf("env %v %v: colour %v, want %v", c.env, c.args, got, c.want)
		}
	}
}

// Completion offers the values of every flag that takes one of a few.
func TestCompletionOffersFlagValues(t *testing.T) {
	t.Parallel()
	for flag, want := range map[string][]string{
		"-o":         {"pretty", "plain", "json", "text", "markdown"},
		"--format":   {"pretty", "json"},
		"--agent":    {"auto", "claude", "codex", "gemini", "opencode", "cursor"},
		"--color":    {"auto", "always", "never"},
		"--ci":       {"auto", "github", "gitlab", "none"},
		"--thinking": {"summary", "full", "none"},
		"--tools":    {"preview", "full", "none"},
		"--summary":  {"auto", "always", "never"},
	} {
		r := cli{args: []string{"__complete", flag, ""}}.run(t)
		got := strings.Split(r.stdout, "\n")
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: %q not offered in %q", flag, w, r.stdout)
			}
		}
		if !strings.Contains(r.stdout, ":4\n") { // ShellCompDirectiveNoFileComp
			t.Errorf("%s: file names offered too: %q", flag, r.stdout)
		}
	}
	// A bad environment default does not break completion.
	r0 := cli{args: []string{"__complete", "--color", ""}, env: map[string]string{"AGENTFMT_COLOR": "sometimes"}}.run(t)
	if r0.code != 0 || !strings.Contains(r0.stdout, "never\n") {
		t.Errorf("with a bad AGENTFMT_COLOR: exit %d, %q %q", r0.code, r0.stdout, r0.stderr)
	}
	// run completes the agents it knows.
	r1 := cli{args: []string{"__complete", "run", ""}}.run(t)
	for _, w := range []string{"claude\tClaude Code", "codex\t", "gemini\t", "opencode\t", "cursor-agent\t", "copilot\t", "agy\t", "amp\t", "qwen\t"} {
		if !strings.Contains(r1.stdout, w) {
			t.Errorf("run AGENT: %q not offered in %q", w, r1.stdout)
		}
	}
	// Under run too (the flags go before AGENT).
	r := cli{args: []string{"__complete", "run", "-o", ""}}.run(t)
	if !strings.Contains(r.stdout, "plain\n") {
		t.Errorf("run -o: %q", r.stdout)
	}
}

// Every flag has an AGENTFMT_<FLAG> default, listed in --help; flags win.
func TestEnvironmentDefaults(t *testing.T) {
	t.Parallel()
	in := aRun("Fine.").String()
	r := cli{args: nil, stdin: strings.NewReader(in), env: map[string]string{"AGENTFMT_FORMAT": "json"}}.run(t)
	if !strings.HasPrefix(r.stdout, `{"v":1`) {
		t.Errorf("AGENTFMT_FORMAT=json: %q", r.stdout)
	}
	r = cli{args: []string{"-o", "text"}, stdin: strings.NewReader(in), env: map[string]string{"AGENTFMT_FORMAT": "json"}}.run(t)
	if r.stdout != "Fine.\n" {
		t.Errorf("-o text over AGENTFMT_FORMAT: %q", r.stdout)
	}
	r = cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(in), env: map[string]string{"AGENTFMT_TOOL_LINES": "many"}}.run(t)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "AGENTFMT_TOOL_LINES") {
		t.Errorf("bad AGENTFMT_TOOL_LINES: exit %d, %q", r.code, r.stderr)
	}
	r = cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(in), env: map[string]string{"AGENTFMT_COLOR": "sometimes"}}.run(t)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "AGENTFMT_COLOR") {
		t.Errorf("bad AGENTFMT_COLOR: exit %d, %q", r.code, r.stderr)
	}
	r = cli{args: []string{"-o", "plain"}, stdin: strings.NewReader("not json\n"), env: map[string]string{"AGENTFMT_STRICT": "true"}}.run(t)
	if r.code != ExitDataErr {
		t.Errorf("AGENTFMT_STRICT=true: exit %d", r.code)
	}
	r = cli{args: []string{"-o", "text"}, stdin: strings.NewReader(aRun("Done. !fin").String()), env: map[string]string{"AGENTFMT_UNTIL": "!fin"}}.run(t)
	if r.code != 0 || r.stdout != "Done.\n" {
		t.Errorf("AGENTFMT_UNTIL: exit %d, %q", r.code, r.stdout)
	}
	help := cli{args: []string{"--help"}}.run(t).stdout
	root := newRoot(&Env{}, new(int))
	root.PersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" && !strings.Contains(help, envName(f.Name)) {
			t.Errorf("--help does not list %s", envName(f.Name))
		}
	})
}

// --max-line takes sizes with units.
func TestMaxLineSizes(t *testing.T) {
	t.Parallel()
	long := `{"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"` + strings.Repeat("x", 3000) + `"}]}}` + "\n"
	for _, c := range []struct {
		size    string
		skipped bool
	}{{"1KiB", true}, {"2k", true}, {"4KiB", false}, {"64MiB", false}, {"1048576", false}, {"1.5 GiB", false}} {
		r := cli{args: []string{"-o", "plain", "--max-line", c.size}, stdin: strings.NewReader(long)}.run(t)
		if r.code == ExitUsage {
			t.Errorf("--max-line %s refused: %s", c.size, r.stderr)
			continue
		}
		if got := !strings.Contains(r.stdout, "xxxxxxxx"); got != c.skipped {
			t.Errorf("--max-line %s: skipped %v, want %v:\n%s", c.size, got, c.skipped, r.stdout)
		}
	}
	for _, bad := range []string{"lots", "-1", "0", "12 parsecs"} {
		if r := (cli{args: []string{"--max-line", bad}}).run(t); r.code != ExitUsage {
			t.Errorf("--max-line %s: exit %d", bad, r.code)
		}
	}
	if help := (cli{args: []string{"--help"}}).run(t).stdout; !strings.Contains(help, "--max-line size") || !strings.Contains(help, `(default 1GiB)`) {
		t.Errorf("help for --max-line:\n%s", help)
	}
}

// A hint on stderr for input with no agent JSON (a forgotten
// --output-format), and when agentfmt would wait on a terminal.
func TestHints(t *testing.T) {
	t.Parallel()
	r := cli{args: []string{"-o", "plain"}, stdin: strings.NewReader("Hello, here is my answer.\nAll good.\n")}.run(t)
	if r.stderr != hintNoJSONText+"\n" || !strings.Contains(r.stdout, "Hello, here is my answer.") {
		t.Errorf("plain text: stderr %q, stdout %q", r.stderr, r.stdout)
	}
	for _, in := range []string{aRun("ok").String(), "banner\n" + aRun("ok").String()} {
		if r := (cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(in)}).run(t); r.stderr != "" {
			t.Errorf("hint for %q: %q", in, r.stderr)
		}
	}
	var out, errb bytes.Buffer
	tty := &ttyStdin{Reader: strings.NewReader(aRun("ok").String())}
	env := &Env{Stdin: tty, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" },
		IsTerminal: func(w io.Writer) bool { return w == io.Writer(tty) }}
	Run([]string{"-o", "plain"}, env)
	if !strings.Contains(errb.String(), "reading an agent's JSON from the terminal") || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("stdin a terminal: stderr %q", errb.String())
	}
	errb.Reset()
	Run([]string{"-o", "plain", "/dev/null"}, env)
	if strings.Contains(errb.String(), "from the terminal") {
		t.Errorf("a FILE given: stderr %q", errb.String())
	}
}

type ttyStdin struct{ io.Reader }

func (*ttyStdin) Write(p []byte) (int, error) { return len(p), nil }

func TestHelpListsEveryExitCode(t *testing.T) {
	t.Parallel()
	help := cli{args: []string{"--help"}}.run(t).stdout
	for _, code := range []int{0, 1, 2, 3, 4, 65, 70, 74, 127, 130, 141, 143} {
		if !strings.Contains(help, fmt.Sprintf("\n  %-4d ", code)) {
			t.Errorf("--help does not list exit %d", code)
		}
	}
}

func TestManPage(t *testing.T) {
	t.Parallel()
	r := cli{args: []string{"man"}}.run(t)
	if r.code != 0 || !strings.Contains(r.stdout, `.TH "AGENTFMT" "1"`) || !strings.Contains(r.stdout, ".SH COMMANDS\n") || !strings.Contains(r.stdout, ".TP\n\\fBagentfmt run\\fR\n") || strings.Contains(r.stdout, "SEE ALSO") ||
		!strings.Contains(r.stdout, `\-\-max\-line`) || !strings.Contains(r.stdout, "143") || !strings.Contains(r.stdout, "AGENTFMT_<FLAG>") {
		t.Errorf("exit %d, page:\n%s", r.code, r.stdout)
	}
	dir := t.TempDir()
	if r := (cli{args: []string{"man", dir}}).run(t); r.code != 0 {
		t.Fatalf("man DIR: exit %d %s", r.code, r.stderr)
	}
	for _, page := range []string{"agentfmt.1", "agentfmt-run.1", "agentfmt-demo.1"} {
		if _, err := os.Stat(filepath.Join(dir, page)); err != nil {
			t.Errorf("%s: %v", page, err)
		}
	}
	if help := (cli{args: []string{"--help"}}).run(t).stdout; !strings.Contains(help, "\n  man ") {
		t.Errorf("man is not listed in --help")
	}
}

// The README shows 'agentfmt run claude -p "…"' as the first way to use
// agentfmt, and says plainly what building and -race need.
func TestReadmeFirstUse(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skip(err)
	}
	s := string(b)
	use := strings.Index(s, "\n## Use\n")
	if use < 0 {
		t.Fatal("no Use section")
	}
	block := strings.Index(s[use:], "```sh\n")
	if block < 0 || !strings.HasPrefix(s[use+block+len("```sh\n"):], `agentfmt run claude -p "`) {
		t.Errorf("the first example under Use is not agentfmt run claude -p")
	}
	for _, want := range []string{"make install", "Go 1.26", "`-race` needs cgo", "go run . demo", "go test -race ./...",
		"must be on your `PATH`", "The first test run takes minutes", "**`../shared/corpus`** is", "without it they skip"} {
		if !strings.Contains(s, want) {
			t.Errorf("README lacks %q", want)
		}
	}
}
