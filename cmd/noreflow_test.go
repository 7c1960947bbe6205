package cmd

import "testing"

// TestNoReflow: terminals known to cut rows on a narrower window, and
// tmux, which re-wraps, wherever it runs.
func TestNoReflow(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"TERM": "xterm-256color", "XTERM_VERSION": "XTerm(390)"}, true},
		{map[string]string{"TERM": "linux"}, true},
		{map[string]string{"TERM": "screen.xterm-256color", "STY": "1234.pts-0.host"}, true},
		{map[string]string{"TERM": "rxvt-unicode-256color"}, true},
		{map[string]string{"TERM": "st-256color"}, true},
		{map[string]string{"TERM": "screen-256color", "TMUX": "/tmp/tmux-0/default,1,0"}, false},
		{map[string]string{"TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "XTERM_VERSION": "XTerm(390)"}, false},
		{map[string]string{"TERM": "xterm-256color", "VTE_VERSION": "7600"}, false},
		{map[string]string{"TERM": "xterm-kitty"}, false},
		{map[string]string{"TERM": "stterm"}, false},
		{map[string]string{}, false},
	} {
		if got := noReflow(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: noReflow %v, want %v", c.env, got, c.want)
		}
	}
}
