package all_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example lets the registry tell the agents apart: a Decoder over
// all.Agents() reads a stream's first lines, picks the agent that wrote
// it, and hands the stream to that agent's parser.
func Example() {
	for _, stream := range []string{
		`{"type":"thread.started","thread_id":"t1"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"Done."}}`,
		`{"type":"init","timestamp":"2026-10-08T03:56:00.100Z","session_id":"s1","model":"gemini-2.5-pro"}
{"type":"message","timestamp":"2026-10-08T03:56:02.010Z","role":"assistant","content":"Done.","delta":true}`,
		`{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5","cwd":"/work","tools":[]}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Done."}]},"session_id":"s1"}`,
	} {
		var texts []string
		dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{}, parsers.EmitFunc(func(_ streaming.Mode, ev *streaming.Event) error {
			if ev.Kind == streaming.KindTextDelta {
				texts = append(texts, ev.Text)
			}
			return nil
		}))
		if err != nil {
			panic(err)
		}
		if err := dec.ReadAll(strings.NewReader(stream)); err != nil {
			panic(err)
		}
		fmt.Println(dec.Agent(), texts)
	}
	// Output:
	// codex [Done.]
	// gemini [Done.]
	// claude [Done.]
}
