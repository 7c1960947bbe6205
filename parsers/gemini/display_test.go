package gemini

import "testing"

// A shell result in a saved chat loses the frame Gemini CLI puts around
// the command's output for the model, in what a person reads (issue 24
// item 7).
func TestShellDisplay(t *testing.T) {
	frame := func(output, errs string) string {
		return "Command: ls -l\nDirectory: (root)\nOutput: " + output + "\nError: " + errs +
			"\nExit Code: 0\nSignal: 0\nBackground PIDs: (none)\nProcess Group PGID: 26593"
	}
	for _, tc := range []struct{ out, want string }{
		{frame("-rw-r--r-- 1 a b 309 docs/blue.md", "(none)"), "-rw-r--r-- 1 a b 309 docs/blue.md"},
		{frame("one\ntwo\nError: in the output\nthree", "(none)"), "one\ntwo\nError: in the output\nthree"},
		{frame("(empty)", "(none)"), "(empty)"},
		{frame("(empty)", "spawn ENOENT"), "Error: spawn ENOENT"},
		{frame("partial", "exit status 1"), "partial\nError: exit status 1"},
		{"Command: x\nDirectory: (root)\nStdout: out\nStderr: warn\nError: (none)\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: (none)",
			"out\nStderr: warn"},
		{"plain output", ""},
		{"Command: not a frame", ""},
		{"Command: x\nOutput: y", ""}, // no fields after it
	} {
		if got := shellDisplay(tc.out); got != tc.want {
			t.Errorf("shellDisplay(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}
