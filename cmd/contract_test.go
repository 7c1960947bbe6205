package cmd

import (
	"strings"
	"testing"
)

// TestStrictContract: under --strict, a valid stream whose deltas repeat
// (four identical Codex output chunks, three identical table rules) exits
// 0 with every repeat shown, and a real snapshot sent as a delta exits 65
// with its line.
func TestStrictContract(t *testing.T) {
	t.Parallel()
	const wait = `{"id":"0","msg":{"type":"exec_command_output_delta","call_id":"c1","stream":"stdout","chunk":"d2FpdGluZyBmb3IgcG9zdGdyZXMgb24gbG9jYWxob3N0OjU0MzIuLi4K"}}` + "\n"
	const rule = `{"id":"0","msg":{"type":"agent_message_delta","delta":"|-----------|-----------|---------|\n"}}` + "\n"
	valid := `{"prompt":"wait"}` + "\n" + `{"id":"0","msg":{"type":"task_started"}}` + "\n" +
		`{"id":"0","msg":{"type":"exec_command_begin","call_id":"c1","command":["./wait"],"cwd":"/"}}` + "\n" +
		strings.Repeat(wait, 4) +
		`{"id":"0","msg":{"type":"exec_command_end","call_id":"c1","exit_code":0}}` + "\n" +
		strings.Repeat(rule, 3) +
		`{"id":"0","msg":{"type":"task_complete","last_agent_message":"done"}}` + "\n"
	r := cli{args: []string{"--strict", "-o", "plain"}, stdin: strings.NewReader(valid)}.run(t)
	if r.code != 0 {
		t.Fatalf("a valid stream under --strict: exit %d, stderr %q", r.code, r.stderr)
	}
	if n := strings.Count(r.stdout, "waiting for postgres on localhost:5432..."); n != 4 {
		t.Errorf("the output line shown %d times, want 4:\n%s", n, r.stdout)
	}
	if n := strings.Count(r.stdout, "|-----------|-----------|---------|"); n != 3 {
		t.Errorf("the table rule shown %d times, want 3:\n%s", n, r.stdout)
	}
	if strings.Contains(r.stdout+r.stderr, "repaired") {
		t.Errorf("genuine repeats reported as repairs:\n%s%s", r.stdout, r.stderr)
	}

	const long = "I will read the file and then fix the failing test."
	bad := `{"id":"0","msg":{"type":"agent_message_delta","delta":"` + long + `"}}` + "\n" +
		`{"id":"0","msg":{"type":"agent_message_delta","delta":"` + long + ` Done."}}` + "\n"
	r = cli{args: []string{"--strict", "-o", "plain"}, stdin: strings.NewReader(bad)}.run(t)
	if r.code != ExitDataErr || !strings.Contains(r.stderr, "line 2") {
		t.Errorf("a snapshot sent as a delta under --strict: exit %d, stderr %q", r.code, r.stderr)
	}
	r = cli{args: []string{"-o", "plain"}, stdin: strings.NewReader(bad)}.run(t)
	if strings.Count(r.stdout, long) != 1 || !strings.Contains(r.stdout, "Done.") {
		t.Errorf("the snapshot was not repaired:\n%s", r.stdout)
	}
}
