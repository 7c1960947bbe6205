package openclaw_test

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/openclaw"
	"github.com/agentfmt/agentfmt/streaming"
)

// Example decodes `openclaw agent --json` (one pretty-printed JSON document
// for the whole run, which Decoder.ReadAll reads whole)
// with the parsers' kit alone: a parsers.Decoder for this package's
// Agent, a streaming.Session that enforces the streaming contract, and a
// handler for the events.
func Example() {
	const stream = `{
  "payloads": [
    {
      "text": "Build passed on main.",
      "mediaUrl": null
    }
  ],
  "meta": {
    "durationMs": 4000,
    "agentMeta": {
      "sessionId": "a1b2c3d4",
      "provider": "anthropic",
      "model": "claude-sonnet-4-5"
    }
  }
}`

	sess := streaming.NewSession(streaming.HandlerFunc(printEvent), streaming.Options{})
	dec, err := parsers.NewDecoder([]parsers.Agent{openclaw.Agent}, parsers.DecoderOptions{}, sess)
	if err != nil {
		panic(err)
	}
	if err := dec.ReadAll(strings.NewReader(stream)); err != nil {
		panic(err)
	}
	if err := sess.Close(); err != nil {
		panic(err)
	}
	outcome, _ := sess.Outcome()
	fmt.Printf("%s %q\n", outcome, sess.FinalAnswer())
	// Output:
	// session.start openclaw "anthropic/claude-sonnet-4-5"
	// text.delta assistant "Build passed on main."
	// result true
	// success "Build passed on main."
}

// printEvent prints what a reader of the run looks at: the run's start,
// the answer's text as it streams, tool calls and the result.
func printEvent(ev *streaming.Event) error {
	switch ev.Kind {
	case streaming.KindSessionStart:
		fmt.Printf("%s %s %q\n", ev.Kind, ev.Agent, ev.Model)
	case streaming.KindTextDelta:
		fmt.Printf("%s %s %q\n", ev.Kind, ev.Role, ev.Text)
	case streaming.KindToolStart:
		fmt.Println(ev.Kind, ev.Name, ev.Subject)
	case streaming.KindToolEnd:
		fmt.Println(ev.Kind, ev.Name, ev.Status)
	case streaming.KindResult:
		fmt.Println(ev.Kind, ev.OK)
	}
	return nil
}
