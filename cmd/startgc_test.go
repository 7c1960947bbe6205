package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A short run of the binary (its version; a run of two lines) does not
// collect: the libraries' initialisers allocate a few megabytes of
// garbage, and startgc moves the first collection past them.
func TestStartCollectsNothing(t *testing.T) {
	t.Parallel()
	bin := hostileBinary(t)
	run := `{"type":"system","subtype":"init","session_id":"s","model":"claude-sonnet-4-5","tools":["Bash"]}` + "\n" +
		`{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s","num_turns":1}` + "\n"
	for _, c := range []struct {
		args  []string
		stdin string
	}{
		{[]string{"--version"}, ""},
		{[]string{"-o", "plain", "--color", "never"}, run},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Env = append(withoutEnv(os.Environ(), "GOGC", "GODEBUG", "GOMEMLIMIT"), "GODEBUG=gctrace=1")
		cmd.Stdin = strings.NewReader(c.stdin)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("agentfmt %s: %v\n%s", strings.Join(c.args, " "), err, stderr.String())
		}
		for l := range strings.Lines(stderr.String()) {
			if strings.HasPrefix(l, "gc ") {
				t.Errorf("agentfmt %s collected as it started:\n%s", strings.Join(c.args, " "), l)
			}
		}
	}
}

// withoutEnv is env without the variables named.
func withoutEnv(env []string, names ...string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, n := range names {
			if name == n {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}
