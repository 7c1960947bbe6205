package cmd

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/sanitize"
)

// The summary line of a run names the models that answered it (Gemini:
// init.model is the router alias, stats.models the models called) and,
// for a run no prompt began, what began it (Claude: /clear, a background
// task's notification), in every format; the agent's strings are
// escaped as each format escapes agent text.
func TestRunLabels(t *testing.T) {
	t.Parallel()
	gemini := `{"type":"init","timestamp":"2026-04-12T00:18:03.490Z","session_id":"g1","model":"auto-gemini-3"}
{"type":"message","timestamp":"2026-04-12T00:18:06.012Z","role":"assistant","content":"Done.","delta":true}
{"type":"result","timestamp":"2026-04-12T00:18:07.284Z","status":"success","stats":{"total_tokens":1200,"input_tokens":1000,"output_tokens":30,"duration_ms":3794,"models":{"router-lite":{"total_tokens":200,"input_tokens":180,"output_tokens":20},"main-model\u001b[31m*x*<b>":{"total_tokens":1000,"input_tokens":820,"output_tokens":10}}}}
`
	claude := `{"type":"system","subtype":"init","cwd":"/p","session_id":"s1","tools":[],"model":"claude-opus-5","claude_code_version":"2.1.278"}
{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":1,"result":"hi","session_id":"s1","total_cost_usd":0.5}
{"type":"conversation_reset","new_conversation_id":"c2","session_id":"s1"}
{"type":"system","subtype":"init","cwd":"/p","session_id":"s2","tools":[],"model":"claude-opus-5","claude_code_version":"2.1.278"}
{"is_error":false,"duration_api_ms":0,"num_turns":0,"session_id":"s2","total_cost_usd":0,"subtype":"success","result":"","local_command":"clear","type":"result","duration_ms":95}
`
	for _, c := range []struct {
		format string
		in     string
		want   []string
		not    []string
	}{
		{"plain", gemini, []string{"── ✓ done · 3.8s · 1.0k in, 30 out · main-model␛[31m*x*<b> + router-lite\n"}, []string{"\x1b"}},
		{"pretty", gemini, []string{"main-model␛[31m*x*<b> + router-lite"}, []string{"\x1b[31m*x*"}},
		{"markdown", gemini, []string{"**✓ Done** · 3.8s · 1.0k in, 30 out · main-model␛\\[31m\\*x\\*\\<b\\> + router-lite\n"}, []string{"\x1b"}},
		{"html", gemini, []string{"main-model␛[31m*x*&lt;b&gt; + router-lite"}, []string{"\x1b", "*x*<b>"}},
		{"json", gemini, []string{`"models":["main-model\u001b[31m*x*<b>","router-lite"]`}, nil},
		{"plain", claude, []string{"── ✓ done · after /clear · 95ms\n", "· new conversation after /clear (the last session was s1)\n"}, nil},
		{"markdown", claude, []string{"**✓ Done** · after /clear · 95ms\n"}, nil},
		{"html", claude, []string{"after /clear"}, nil},
		{"json", claude, []string{`"origin":"clear"`}, nil},
	} {
		colour := "never" // a raw ESC of the agent's is then the only one
		if c.format == "pretty" {
			colour = "always"
		}
		r := cli{args: []string{"-o", c.format, "--color", colour, "--width", "120"}, stdin: strings.NewReader(c.in)}.run(t)
		if r.code != 0 {
			t.Errorf("%s: exit %d: %s", c.format, r.code, r.stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(sanitize.StripSGR(r.stdout), w) {
				t.Errorf("%s: no %q in\n%s", c.format, w, r.stdout)
			}
		}
		for _, n := range c.not {
			if strings.Contains(r.stdout, n) {
				t.Errorf("%s: %q reached the output", c.format, n)
			}
		}
	}
}
