package cmd

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// stderrPayload is terminal control and GitHub workflow commands, CR- and
// LF-separated, as an attacker would put in a line agentfmt quotes.
const stderrPayload = "x\x1b]52;c;cHduZWQ=\x07\x1b[2J\r::add-mask::s3cret\r\n::error file=a::pwn ##[set-output name=a]b"

// checkStderr holds every stderr line to: "agentfmt: " and one line, with
// no control character and nothing the GitHub runner would obey.
func checkStderr(t *testing.T, what, stderr string) {
	t.Helper()
	if stderr == "" {
		t.Fatalf("%s: nothing on stderr", what)
	}
	command := regexp.MustCompile(`^[\s\x{a0}\x{3000}]*::`)
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if l == "" {
			continue
		}
		if !strings.HasSuffix(l, "\n") {
			t.Errorf("%s: unterminated stderr line %q", what, l)
		}
		l = strings.TrimSuffix(l, "\n")
		if !strings.HasPrefix(l, "agentfmt: ") && !strings.HasPrefix(l, "Run 'agentfmt --help'") {
			t.Errorf("%s: stderr line %q is not a message of agentfmt (a message broken in two?)", what, l)
		}
		if strings.ContainsAny(l, "\x1b\r\x07") {
			t.Errorf("%s: control characters on stderr: %q", what, l)
		}
		if command.MatchString(l) || strings.Contains(l, "##[") {
			t.Errorf("%s: a workflow command on stderr: %q", what, l)
		}
	}
}

func TestStderrIsSanitised(t *testing.T) {
	t.Parallel()
	payloadJSON := strings.NewReplacer("\x1b", `\u001b`, "\x07", `\u0007`, "\r", `\r`, "\n", `\n`).Replace(stderrPayload)
	noNL := strings.NewReplacer("\r\n", "\r").Replace(stderrPayload)
	for _, tc := range []struct {
		what  string
		args  []string
		stdin string
	}{
		{"--strict not JSON", []string{"--strict", "-o", "plain"}, noNL + "\n"},
		{"--strict invalid JSON", []string{"--strict", "-o", "plain"}, `{"a":"` + noNL + "\n"},
		{"--debug unknown type", []string{"--debug", "-o", "plain"}, `{"type":"` + payloadJSON + `"}` + "\n"},
		{"missing file", []string{"-o", "plain", "missing" + stderrPayload}, ""},
		{"bad flag value", []string{"-o", stderrPayload}, ""},
	} {
		r := cli{args: tc.args, stdin: strings.NewReader(tc.stdin)}.run(t)
		checkStderr(t, tc.what, r.stderr)
	}
}

// stderrSafe reports a stderr that is not made of one-line messages of
// agentfmt free of control characters and workflow commands.
func stderrSafe(stderr string) error {
	command := regexp.MustCompile(`^[\s\x{a0}\x{3000}]*::`)
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if l == "" {
			continue
		}
		if !strings.HasSuffix(l, "\n") {
			return fmt.Errorf("unterminated stderr line %q", l)
		}
		l = strings.TrimSuffix(l, "\n")
		switch {
		case !strings.HasPrefix(l, "agentfmt: ") && !strings.HasPrefix(l, "Run 'agentfmt --help'"):
			return fmt.Errorf("stderr line %q is not a message of agentfmt", l)
		case strings.ContainsAny(l, "\x1b\r\x07"):
			return fmt.Errorf("control characters on stderr: %q", l)
		case command.MatchString(l) || strings.Contains(l, "##["):
			return fmt.Errorf("a workflow command on stderr: %q", l)
		}
	}
	return nil
}
