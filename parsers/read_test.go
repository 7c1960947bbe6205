package parsers_test

import (
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

const codexRun = `{"type":"thread.started","thread_id":"t1"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"Done."}}
{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":2}}
`

// kinds reads stream with opts and lists the kinds of the events, then
// "error: ..." for an error.
func kinds(stream string, opts parsers.Options, stopAt streaming.Kind) []string {
	var got []string
	for ev, err := range parsers.Read(strings.NewReader(stream), opts) {
		if err != nil {
			got = append(got, "error: "+err.Error())
			continue
		}
		got = append(got, string(ev.Kind))
		if ev.Kind == stopAt {
			break
		}
	}
	return got
}

func TestRead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		stream string
		opts   parsers.Options
		stopAt streaming.Kind
		want   string
	}{
		{"detected", codexRun, parsers.Options{}, "",
			"session.start message.start text.delta block.stop message.stop result"},
		{"named agent", codexRun, parsers.Options{Agent: "codex"}, "",
			"session.start message.start text.delta block.stop message.stop result"},
		{"break stops the reading", codexRun, parsers.Options{}, streaming.KindTextDelta,
			"session.start message.start text.delta"},
		{"unknown agent", codexRun, parsers.Options{Agent: "nobody"}, "",
			`error: unknown agent "nobody"`},
		{"not JSON", "hello\n", parsers.Options{}, "", "raw"},
		{"not JSON, strict", codexRun + "hello\n", parsers.Options{Strict: true}, "",
			"session.start message.start text.delta block.stop message.stop result error: line 4: not JSON: hello"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := strings.Join(kinds(tc.stream, tc.opts, tc.stopAt), " "); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestReadLends: with Options.Lend the loop gets the same events, and an
// error ends the reading as without it.
func TestReadLends(t *testing.T) {
	t.Parallel()
	var texts []string
	for ev, err := range parsers.Read(strings.NewReader(codexRun), parsers.Options{Lend: true}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == streaming.KindTextDelta {
			texts = append(texts, strings.Clone(ev.Text))
		}
	}
	if got := strings.Join(texts, "|"); got != "Done." {
		t.Errorf("texts %q, want Done.", got)
	}
}
