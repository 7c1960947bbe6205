package html_test

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/render"
)

// TestOptions: the configuration that says how much to show (--thinking,
// --tools) acts on the page.
func TestOptions(t *testing.T) {
	t.Parallel()
	in := fixture(t, "html/01-answer-tools-markdown.jsonl")
	cases := []struct {
		name        string
		thinking    render.ThinkingMode
		tools       render.ToolsMode
		has, hasNot []string
	}{
		{"default", "", "", []string{`<details class="item thinking" id="m2">`, `<details class="more">`, `<pre class="io">ok  	github.com/x/pkg0`}, nil},
		{"thinking none", render.ThinkingNone, "", nil, []string{`class="item thinking`, "The reader splits on LF"}},
		{"thinking full", render.ThinkingFull, "", []string{`<details class="item thinking" id="m2" open>`}, nil},
		{"tools full", "", render.ToolsFull, []string{"github.com/x/pkg59"}, []string{`<details class="more">`}},
		{"tools none", "", render.ToolsNone, []string{"(not shown: --tools none)", `class="item tool ok"`}, []string{"github.com/x/pkg0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := page(t, in, func(cfg *render.Config) { cfg.Thinking, cfg.Tools = c.thinking, c.tools })
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
