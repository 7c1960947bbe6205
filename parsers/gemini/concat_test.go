package gemini_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsertest"
	"github.com/agentfmt/agentfmt/parsers/gemini"
	"github.com/agentfmt/agentfmt/streaming"
)

// fakeCodex claims Codex's thread/turn/item lines, as the codex parser
// does, so the switch to gemini can be tested without it.
var fakeCodex = parsers.Agent{
	Name: "codex",
	Detect: func(l *parsers.Line) parsers.Confidence {
		switch t := l.Str("type"); {
		case t == "thread.started":
			return parsers.Decisive
		case strings.HasPrefix(t, "turn.") || strings.HasPrefix(t, "item."):
			return parsers.Maybe
		}
		return parsers.No
	},
	New: func() parsers.Parser { return &fakeParser{} },
}

type fakeParser struct{ ev streaming.Event }

func (p *fakeParser) Parse(l *parsers.Line, emit parsers.Emit) error {
	switch l.Str("type") {
	case "thread.started":
		p.ev = streaming.Event{Kind: streaming.KindSessionStart, SessionID: l.Str("thread_id")}
	case "item.completed":
		p.ev = streaming.Event{Kind: streaming.KindTextDelta, Message: l.Path("item.id").String(),
			Role: streaming.RoleAssistant, Text: l.Path("item.text").String()}
		return emit.Final(&p.ev)
	case "turn.completed":
		p.ev = streaming.Event{Kind: streaming.KindResult, OK: true}
	default:
		return nil
	}
	return emit.Push(&p.ev)
}

func (p *fakeParser) Finish(parsers.Emit) error { return nil }

const codexLog = `{"type":"thread.started","thread_id":"019fe041"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"codex says hello"}}
{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":2}}
`

// A log of a Codex run followed by a Gemini run renders both: Gemini's
// init line is decisive, so the decoder switches to the gemini parser.
func TestConcatenatedCodexThenGemini(t *testing.T) {
	gem, err := os.ReadFile(filepath.Join("..", "..", "testdata", "gemini", "02-parallel-tools.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r := parsertest.Run([]parsers.Agent{fakeCodex, gemini.Agent}, codexLog+string(gem)).Check(t)
	text := r.Text(streaming.KindTextDelta)
	if !strings.Contains(text, "codex says hello") || !strings.Contains(text, "the README documents the same version.") {
		t.Fatalf("text = %q", text)
	}
	agentsSeen := map[string]bool{}
	for _, e := range r.Of(streaming.KindSessionStart) {
		agentsSeen[e.Agent] = true
	}
	if !agentsSeen["codex"] || !agentsSeen["gemini"] {
		t.Errorf("session.start agents = %v", agentsSeen)
	}
	if r.Outcome != streaming.Success || r.Stats.Runs != 2 {
		t.Errorf("outcome %v runs %d", r.Outcome, r.Stats.Runs)
	}
	// And back: gemini first, then codex.
	r = parsertest.Run([]parsers.Agent{fakeCodex, gemini.Agent}, string(gem)+codexLog).Check(t)
	if text := r.Text(streaming.KindTextDelta); !strings.Contains(text, "codex says hello") || !strings.Contains(text, "Go 1.26.8") {
		t.Errorf("text = %q", text)
	}
}
