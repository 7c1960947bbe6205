package codex_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/streaming"
)

// FuzzParse feeds arbitrary input through the decoder (detected, and
// forced to codex so every line reaches the parser) and the session: no
// panic, no error, and assistant text never outgrows what the input held.
func FuzzParse(f *testing.F) {
	for _, l := range fixtureLines(f) {
		f.Add(l)
	}
	for _, fx := range fixtures(f) {
		b, err := os.ReadFile(fx)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(thread + "\n" + turn + "\n" + msg("item_0", "a") + "\n" + complete + "\n" + thread + "\n" + turn + "\n" + msg("item_0", "a"))
	f.Fuzz(func(t *testing.T, in string) {
		for _, force := range []string{"", "codex"} {
			res := parsertest.RunOpts(agents, in, parsers.DecoderOptions{Force: force}, streaming.Options{})
			if res.Err != nil {
				t.Fatalf("force %q: %v", force, res.Err)
			}
		}
	})
}

// TestFuzzRegressions holds inputs the fuzzer once found.
func TestFuzzRegressions(t *testing.T) {
	for _, in := range []string{
		`{"type":"item.completed","item":{}}`,
		`{"type":"item.plan.delta"}`,
		`{"id":"0","msg":{"type":"exec_command_output_delta","chunk":[255,254,253]}}`,
		`{"id":"0","msg":{"type":"agent_reasoning_section_break"}}` + "\n" + `{"id":"0","msg":{"type":"agent_reasoning","text":"x"}}`,
		strings.Repeat(`{"type":"turn.started"}`+"\n", 3),
	} {
		for _, force := range []string{"", "codex"} {
			if res := parsertest.RunOpts(agents, in, parsers.DecoderOptions{Force: force}, streaming.Options{}); res.Err != nil {
				t.Errorf("%q: %v", in, res.Err)
			}
		}
	}
}
