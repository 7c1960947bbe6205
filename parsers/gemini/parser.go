package gemini

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// parser is the state of one Gemini stream.
type parser struct {
	out     parsers.Out // its Time is the current line's
	ids     parsers.IDs // message ids (gemini has none on the wire)
	toolIDs parsers.IDs // ids of tool calls without one
	para    paragraph   // the open assistant paragraph, if any

	// Per run (reset by init).
	lastErr string // the last error line's message: the reason of a bare error result
}

func newParser() *parser {
	return &parser{}
}

// Parse handles one line.
func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit = emit
	p.out.Time = parsers.TimeOf(l.Get("timestamp"))
	typ := l.Get("type")
	if !typ.Exists() && detectJSONMode(l) != parsers.No {
		return p.jsonMode(l)
	}
	switch typ.String() {
	case "init":
		return p.init(l)
	case "message":
		return p.message(l)
	case "tool_use":
		return p.toolUse(l)
	case "tool_result":
		return p.toolResult(l)
	case "error":
		return p.errorLine(l)
	case "result":
		return p.result(l)
	}
	// Unknown types (a later version's thought/thinking, a fork's own
	// events) are passed through; they do not end the paragraph.
	return p.out.Unknown(typ.String(), l.JSON)
}

// Finish closes the open paragraph. Open tool calls are left to the
// session, which closes them as incomplete.
func (p *parser) Finish(emit parsers.Emit) error {
	p.out.Emit = emit
	return p.closePara()
}

func (p *parser) init(l *parsers.Line) error {
	if err := p.closePara(); err != nil {
		return err
	}
	p.lastErr = ""
	e := p.out.New(streaming.KindSessionStart)
	e.SessionID = l.Str("session_id")
	e.Model = l.Str("model")
	return p.out.Push()
}
