package cmd

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
)

// ghPayload is workflow commands separated by CR, LF and CRLF, indented,
// in the old ##[ syntax and mid-line.
const ghPayload = "\r::add-mask::m1\n::error file=x.go::e1\r\n  ::set-env name=A::b\n##[set-output name=a]v see ##[error]mid\r::stop-commands::t"

// payloadEverywhere is a Claude run with ghPayload in every field that
// reaches output: session id, model, text, tool names, tool inputs (title,
// subject, file path, edit), tool output, tool errors, the final answer.
func payloadEverywhere(ok bool) string {
	p := ghPayload
	s := &cs{}
	s.line(map[string]any{"type": "system", "subtype": "init", "cwd": "/work" + p, "model": "claude" + p,
		"session_id": "sess" + p, "tools": []string{"Bash" + p}, "permissionMode": "default"})
	s.text("msg_1", "Plan:"+p)
	s.toolUse("msg_1", "toolu_1", "Bash"+p, map[string]any{"command": "echo" + p, "description": "desc" + p})
	s.toolResult("toolu_1", "out"+p, false)
	s.toolUse("msg_1", "toolu_2", "Read", map[string]any{"file_path": "/src/a" + p + ".go"})
	s.toolResult("toolu_2", "err"+p, true)
	s.toolUse("msg_1", "toolu_3", "Edit", map[string]any{"file_path": "/src/b" + p + ".go", "old_string": "x" + p, "new_string": "y" + p})
	s.toolResult("toolu_3", "edited"+p, false)
	s.toolUse("msg_1", "toolu_4", p, map[string]any{"x": p})
	s.b.WriteString("raw line " + strings.NewReplacer("\n", " ").Replace(p) + "\n")
	s.line(map[string]any{"type": "weird" + p, "x": p})
	s.text("msg_2", "Answer:"+p)
	return s.result(ok, "Answer:"+p).String()
}

// TestGitHubProtectionEveryFormat runs a stream with workflow commands in
// every field through every format in a GitHub Actions job: the runner
// acts on no command but agentfmt's own annotations; with --ci none the
// bytes are as they came; -o json stays lossless.
func TestGitHubProtectionEveryFormat(t *testing.T) {
	t.Parallel()
	for _, ok := range []bool{true, false} {
		in := payloadEverywhere(ok)
		for _, tc := range []struct {
			format string
			tty    bool
		}{{"plain", false}, {"pretty", true}, {"pretty", false}, {"markdown", false}, {"text", false}, {"json", false}} {
			args := []string{"-o", tc.format, "--tools", "full", "--thinking", "full", "--width", "60"}
			r := cli{args: args, stdin: strings.NewReader(in), tty: tc.tty, env: map[string]string{"GITHUB_ACTIONS": "true"}}.run(t)
			if r.code != 0 && r.code != 1 {
				t.Fatalf("%s: exit %d: %s", tc.format, r.code, r.stderr)
			}
			cmds, _ := ghRunner(r.stdout)
			for _, c := range liveCommands(cmds) {
				if !strings.HasPrefix(c, "warning:") && !strings.HasPrefix(c, "error:") || strings.Contains(c, "e1") {
					t.Errorf("%s (tty %v, ok %v): content issued a command: %q", tc.format, tc.tty, ok, c)
				}
			}
			if !strings.Contains(r.stdout, "Answer:") {
				t.Errorf("%s: the answer is missing:\n%s", tc.format, r.stdout)
			}
			if tc.format != "json" {
				continue
			}
			// Lossless: the decoded answer is the payload.
			found := false
			sc := bufio.NewScanner(strings.NewReader(r.stdout))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var ev struct{ Kind, Text string }
				if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
					t.Fatalf("json: %v: %s", err, sc.Text())
				}
				found = found || strings.Contains(ev.Text, "Answer:"+ghPayload)
			}
			if !found {
				t.Errorf("json: no event decodes to the answer with its payload")
			}
		}
	}
	// --ci none: the bytes as they came (here: text's answer).
	r := cli{args: []string{"-o", "text", "--ci", "none"}, stdin: strings.NewReader(payloadEverywhere(true)),
		env: map[string]string{"GITHUB_ACTIONS": "true"}}.run(t)
	if want := "Answer:" + ghPayload + "\n"; r.stdout != want {
		t.Errorf("--ci none: %q, want %q", r.stdout, want)
	}
}
