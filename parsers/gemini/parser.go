package gemini

import (
	"fmt"
	"time"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// parser is the state of one Gemini stream.
type parser struct {
	ev streaming.Event // scratch event
	t  time.Time       // time of the current line

	n     int               // messages opened, for generated ids
	para  paragraph         // the open assistant paragraph, if any
	tools map[string]string // tool_id → tool name, until its result
	ntool int               // tool calls without an id

	// Per run (reset by init).
	lastErr string // the last error line's message: the reason of a bare error result
}

func newParser() *parser {
	return &parser{tools: make(map[string]string)}
}

// Parse handles one line.
func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.t = lineTime(l.Get("timestamp"))
	typ := l.Get("type")
	if !typ.Exists() && detectJSONMode(l) != parsers.No {
		return p.jsonMode(l, emit)
	}
	switch typ.String() {
	case "init":
		return p.init(l, emit)
	case "message":
		return p.message(l, emit)
	case "tool_use":
		return p.toolUse(l, emit)
	case "tool_result":
		return p.toolResult(l, emit)
	case "error":
		return p.errorLine(l, emit)
	case "result":
		return p.result(l, emit)
	}
	// Unknown types (a later version's thought/thinking, a fork's own
	// events) are passed through; they do not end the paragraph.
	e := p.event(streaming.KindUnknown)
	e.Type = typ.String()
	e.Text = l.JSON
	return emit.Push(e)
}

// Finish closes the open paragraph. Open tool calls are left to the
// session, which closes them as incomplete.
func (p *parser) Finish(emit parsers.Emit) error {
	return p.closePara(emit)
}

// event resets the scratch event to a new event of the given kind, stamped
// with the current line's time.
func (p *parser) event(kind streaming.Kind) *streaming.Event {
	p.ev = streaming.Event{Kind: kind, Time: p.t}
	return &p.ev
}

// nextID returns a fresh message id: gemini has none on the wire.
func (p *parser) nextID(prefix string) string {
	p.n++
	return fmt.Sprintf("%s%d", prefix, p.n)
}

func (p *parser) init(l *parsers.Line, emit parsers.Emit) error {
	if err := p.closePara(emit); err != nil {
		return err
	}
	p.lastErr = ""
	clear(p.tools) // calls left open are closed by the session as incomplete
	e := p.event(streaming.KindSessionStart)
	e.SessionID = l.Str("session_id")
	e.Model = l.Str("model")
	return emit.Push(e)
}

// lineTime parses an ISO-8601 timestamp; zero when absent or invalid.
func lineTime(v gjson.Result) time.Time {
	if v.Type != gjson.String {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, v.Str)
	if err != nil {
		return time.Time{}
	}
	return t
}
