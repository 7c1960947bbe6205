package cmd

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/termwrap"
)

// TestHelpWidth: every command's --help fits 80 columns when stdout is no
// terminal, and the terminal's width on one; the usage comes first.
func TestHelpWidth(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--help"}, {"run", "--help"}, {"sessions", "--help"}, {"watch", "--help"},
		{"demo", "--help"}, {"man", "--help"}, {"help", "run"}} {
		for _, width := range []int{0, 60, 132} {
			c := cli{args: args}
			if width > 0 {
				c.tty, c.width, c.height = true, width, 40
			}
			r := c.run(t)
			if !strings.HasPrefix(r.stdout, "Usage:\n  agentfmt ") {
				t.Errorf("%v: does not begin with the usage:\n%.200s", args, r.stdout)
			}
			limit := width
			if width == 0 {
				limit = 80
			}
			for _, l := range strings.Split(r.stdout, "\n") {
				if w := termwrap.Width(l); w > limit {
					t.Errorf("%v at %d columns: a line of %d: %q", args, limit, w, l)
				}
			}
		}
	}
}
