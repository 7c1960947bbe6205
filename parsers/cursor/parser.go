package cursor

import (
	"strconv"
	"time"

	"github.com/agentfmt/agentfmt/parsers"
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
	ev  streaming.Event
	seq int // id counter, with the line number it makes ids unique

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

// newID returns a message id unique within the stream: a counter and the
// input line (parsers are re-created when a log switches agent).
func (p *parser) newID(prefix string, line int) string {
	p.seq++
	return prefix + strconv.Itoa(p.seq) + "@" + strconv.Itoa(line)
}

// reset clears p.ev for a new event of kind k stamped with the line's time.
func (p *parser) reset(k streaming.Kind, l *parsers.Line) *streaming.Event {
	p.ev = streaming.Event{Kind: k}
	if l != nil {
		if ms := l.Get("timestamp_ms").Int(); ms > 0 {
			p.ev.Time = time.UnixMilli(ms)
		}
	}
	return &p.ev
}

func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	switch l.Str("type") {
	case "system":
		if l.Str("subtype") == "init" {
			return p.init(l, emit)
		}
	case "user":
		return p.user(l, emit)
	case "thinking":
		switch l.Str("subtype") {
		case "delta":
			return p.thinkingDelta(l, emit)
		case "completed":
			return p.thinkingCompleted(l, emit)
		}
	case "assistant":
		return p.assistant(l, emit)
	case "tool_call":
		switch l.Str("subtype") {
		case "started":
			return p.toolStarted(l, emit)
		case "completed":
			return p.toolCompleted(l, emit)
		}
	case "result":
		return p.result(l, emit)
	}
	return p.unknown(l, emit)
}

func (p *parser) unknown(l *parsers.Line, emit parsers.Emit) error {
	ev := p.reset(streaming.KindUnknown, l)
	ev.Type = l.Str("type")
	if st := l.Str("subtype"); st != "" && ev.Type != "" {
		ev.Type += "/" + st
	}
	ev.Text = l.JSON
	return emit.Push(ev)
}

// Finish closes the open text and thinking messages. Open tool calls are
// left to the session, which ends them as incomplete.
func (p *parser) Finish(emit parsers.Emit) error {
	if err := p.closeThinking(nil, emit); err != nil {
		return err
	}
	return p.endSegments(nil, emit)
}

func (p *parser) init(l *parsers.Line, emit parsers.Emit) error {
	if err := p.Finish(emit); err != nil {
		return err
	}
	p.sawText = false
	p.todos, p.todoIDs, p.lastPlan = nil, nil, nil
	clear(p.tools)
	ev := p.reset(streaming.KindSessionStart, l)
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
	return emit.Push(ev)
}
