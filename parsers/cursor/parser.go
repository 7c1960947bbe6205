package cursor

import (
	"time"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// segment is a run of assistant text between tool calls: one message.
type segment struct {
	id     string
	deltas bool     // partial-output fragments were seen
	full   bool     // a complete line (recap or plain segment) was seen
	prev   *segment // the segment its complete line may repeat, open until it stops
}

// parser is the state of one Cursor stream.
type parser struct {
	out parsers.Out // its Time is the line's timestamp_ms
	ids parsers.IDs // with the line number, ids unique in the stream (parsers are re-created when a log switches agent)

	cur *segment // the open text segment, nil when none
	// pending is the last segment of fragments that a tool call or
	// thinking closed before its recap: it stays open, as a recap after
	// the boundary belongs to it.
	pending *segment
	sawText bool // assistant text was shown in this run

	think string // open thinking message id

	tools    map[string]int64 // open tool call ids → started timestamp_ms (0: none)
	todos    []streaming.PlanEntry
	todoIDs  []string
	lastPlan []streaming.PlanEntry
}

func newParser() *parser {
	return &parser{tools: make(map[string]int64)}
}

func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit, p.out.Time = emit, time.Time{}
	if ms := l.Get("timestamp_ms").Int(); ms > 0 {
		p.out.Time = time.UnixMilli(ms)
	}
	switch l.Str("type") {
	case "system":
		if l.Str("subtype") == "init" {
			return p.init(l)
		}
	case "user":
		return p.user(l)
	case "thinking":
		switch l.Str("subtype") {
		case "delta":
			return p.thinkingDelta(l)
		case "completed":
			return p.thinkingCompleted(l)
		}
	case "assistant":
		return p.assistant(l)
	case "tool_call":
		switch l.Str("subtype") {
		case "started":
			return p.toolStarted(l)
		case "completed":
			return p.toolCompleted(l)
		}
	case "result":
		return p.result(l)
	}
	return p.unknown(l)
}

func (p *parser) unknown(l *parsers.Line) error {
	ev := p.out.New(streaming.KindUnknown)
	ev.Type = l.Str("type")
	if st := l.Str("subtype"); st != "" && ev.Type != "" {
		ev.Type += "/" + st
	}
	ev.Text = l.JSON
	return p.out.Push()
}

// Finish closes the open text and thinking messages. Open tool calls are
// left to the session, which ends them as incomplete.
func (p *parser) Finish(emit parsers.Emit) error {
	p.out.Emit, p.out.Time = emit, time.Time{}
	return p.closeAll()
}

// closeAll closes the open text and thinking messages, at no time of a
// line: at the end of input, and before a new run.
func (p *parser) closeAll() error {
	t := p.out.Time
	p.out.Time = time.Time{}
	defer func() { p.out.Time = t }()
	if err := p.closeThinking(); err != nil {
		return err
	}
	return p.endSegments()
}

func (p *parser) init(l *parsers.Line) error {
	if err := p.closeAll(); err != nil {
		return err
	}
	p.sawText = false
	p.todos, p.todoIDs, p.lastPlan = nil, nil, nil
	clear(p.tools)
	ev := p.out.New(streaming.KindSessionStart)
	ev.SessionID = l.Str("session_id")
	ev.Model = l.Str("model")
	ev.CWD = l.Str("cwd")
	if t := l.Get("tools"); t.IsArray() {
		for _, x := range t.Array() {
			if s := x.Str; s != "" {
				ev.Tools = append(ev.Tools, s)
			} else if n := x.Get("name").Str; n != "" {
				ev.Tools = append(ev.Tools, n)
			}
		}
	}
	return p.out.Push()
}
