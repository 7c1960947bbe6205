package reminder

import (
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// Tool results lose the <system-reminder> blocks Claude Code appends for
// the model, in what a person reads (issue 24 item 7).
func TestStrip(t *testing.T) {
	const rem = "<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware.\n</system-reminder>\n"
	for _, tc := range []struct{ out, want string }{
		{"     1→package main\n     2→\n\n" + rem, "     1→package main\n     2→"},
		{"a\n" + rem + "\n" + rem, "a"},      // two of them
		{"plain output\n", ""},               // nothing to leave out
		{rem, ""},                            // nothing but the reminder: it is the message
		{"x <system-reminder>in a line", ""}, // not a block at the end
		{rem + "the file's own text\n", ""},  // one in the middle is the file's
		{"tail </system-reminder>\n", ""},    // a close without an open
		{"a\r\n<system-reminder>r</system-reminder>\r\n", "a"},
	} {
		if got := Strip(tc.out); got != tc.want {
			t.Errorf("Strip(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}
