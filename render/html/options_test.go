package html_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/cmd"
)

// TestOptions: the flags that say how much to show act on the page.
func TestOptions(t *testing.T) {
	t.Parallel()
	in := fixture(t, "html/01-answer-tools-markdown.jsonl")
	cases := []struct {
		args        []string
		has, hasNot []string
	}{
		{nil, []string{`<details class="item thinking" id="m2">`, `<details class="more">`, `<pre class="io">ok  	github.com/x/pkg0`}, nil},
		{[]string{"--thinking", "none"}, nil, []string{`class="item thinking`, "The reader splits on LF"}},
		{[]string{"--thinking", "full"}, []string{`<details class="item thinking" id="m2" open>`}, nil},
		{[]string{"--tools", "full"}, []string{"github.com/x/pkg59"}, []string{`<details class="more">`}},
		{[]string{"--tools", "none"}, []string{"(not shown: --tools none)", `class="item tool ok"`}, []string{"github.com/x/pkg0"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			p, code := page(t, in, c.args...)
			if code != 0 {
				t.Errorf("exit %d", code)
			}
			for _, s := range c.has {
				if !strings.Contains(p, s) {
					t.Errorf("page lacks %q", s)
				}
			}
			for _, s := range c.hasNot {
				if strings.Contains(p, s) {
					t.Errorf("page has %q", s)
				}
			}
		})
	}
}

// TestFormatWired: -o html and --format=html choose the page; --help
// names it; a bad format is still a usage error.
func TestFormatWired(t *testing.T) {
	t.Parallel()
	in := fixture(t, "html/01-answer-tools-markdown.jsonl")
	run := func(args []string, env map[string]string) (string, int) {
		var out, errb bytes.Buffer
		e := &cmd.Env{Stdin: bytes.NewReader(in), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string { return env[k] }, Now: time.Now, Tick: make(chan time.Time)}
		code := cmd.Run(args, e)
		return out.String() + errb.String(), code
	}
	for _, c := range []struct {
		args []string
		env  map[string]string
	}{
		{[]string{"-o", "html"}, nil},
		{[]string{"--format=html"}, nil},
	} {
		out, code := run(c.args, c.env)
		if code != 0 || !strings.HasPrefix(out, "<!DOCTYPE html>") || !strings.HasSuffix(out, "</html>\n") {
			t.Errorf("%v %v: exit %d, output %q…", c.args, c.env, code, clipS(out))
		}
	}
	if out, _ := run([]string{"--help"}, nil); !strings.Contains(out, "markdown, html") {
		t.Errorf("--help does not name html: %s", clipS(out))
	}
	if _, code := run([]string{"-o", "htm"}, nil); code != 2 {
		t.Errorf("-o htm: exit %d, want 2", code)
	}
}
