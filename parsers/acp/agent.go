// Package acp parses the acp wire format into streaming events.
package acp

import (
	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// Agent is the acp format for the registry.
var Agent = parsers.Agent{
	Name:   "acp",
	Detect: func(l *parsers.Line) parsers.Confidence { return parsers.No },
	New:    func() parsers.Parser { return &parser{} },
}

type parser struct{ ev streaming.Event }

func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.ev = streaming.Event{Kind: streaming.KindUnknown, Type: l.Str("type"), Text: l.JSON}
	return emit(&p.ev)
}

func (p *parser) Finish(emit parsers.Emit) error { return nil }
