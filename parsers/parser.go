// Package parsers turns agents' wire formats into streaming events.
//
// Each agent has a package of its own (parsers/claude, parsers/codex, …)
// that provides an Agent: a detector that scores a line and a constructor
// for a stateful Parser. A Decoder picks the parser from the first decisive
// lines, re-detects when a concatenated log switches agent, and hands every
// event to a streaming.Session. Parsers never print.
package parsers

import (
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Confidence is how sure a detector is that a line is its agent's.
type Confidence int

const (
	// No: not this agent's line.
	No Confidence = iota
	// Maybe: the shape is shared with other agents (Claude, Qwen, Amp and
	// Cursor share type names).
	Maybe
	// Decisive: only this agent writes this line (an init with the agent's
	// own fields, a type no other agent uses).
	Decisive
)

// Emit hands an event to the session. The event may be reused by the
// parser once Emit returns. An error (a --strict contract violation, a
// closed output) must be returned by Parse as it is.
type Emit func(ev *streaming.Event) error

// Parser is the state of one agent's stream. Parse is called once per
// JSON value, in input order.
type Parser interface {
	// Parse turns one JSON line into events. Lines it does not understand
	// become KindUnknown events: nothing is dropped silently.
	Parse(l *Line, emit Emit) error
	// Finish is called at the end of input, and before the decoder switches
	// to another agent, to emit whatever the parser still holds.
	Finish(emit Emit) error
}

// Agent describes one supported agent format.
type Agent struct {
	// Name is what --agent accepts and what events carry as "agent".
	Name string
	// Aliases are other names --agent accepts for it.
	Aliases []string
	// Detect scores one line. It must be cheap: it runs on every line,
	// and should only look at the line's top-level fields (Line.Get).
	Detect func(l *Line) Confidence
	// New returns a parser for a fresh stream.
	New func() Parser
}

// maxTop is how many top-level fields a Line indexes; further fields are
// still reachable through Line.Path.
const maxTop = 24

type field struct {
	key string
	val gjson.Result
}

// Line is one valid JSON value of the input, with its top-level fields
// indexed in one pass. The JSON string is immutable: results taken from it
// may be kept.
type Line struct {
	// JSON is the line's text.
	JSON string
	// N is the 1-based input line number.
	N int

	top  [maxTop]field
	ntop int
	more bool // more top-level fields than indexed
}

// NewLine indexes the top-level fields of json, which must be valid JSON.
func NewLine(json string, n int) *Line {
	l := &Line{}
	l.Reset(json, n)
	return l
}

// Reset re-indexes l for a new line, reusing its storage.
func (l *Line) Reset(json string, n int) {
	l.JSON, l.N, l.ntop, l.more = json, n, 0, false
	res := gjson.Parse(json)
	if !res.IsObject() {
		return
	}
	res.ForEach(func(k, v gjson.Result) bool {
		if l.ntop == maxTop {
			l.more = true
			return false
		}
		l.top[l.ntop] = field{key: k.Str, val: v}
		l.ntop++
		return true
	})
}

// Get returns a top-level field of the line.
func (l *Line) Get(key string) gjson.Result {
	for i := 0; i < l.ntop; i++ {
		if l.top[i].key == key {
			return l.top[i].val
		}
	}
	if l.more {
		return gjson.Get(l.JSON, gjson.Escape(key))
	}
	return gjson.Result{}
}

// Has reports whether the line has a top-level field.
func (l *Line) Has(key string) bool { return l.Get(key).Exists() }

// Str returns a top-level string field ("" when absent or not a string).
func (l *Line) Str(key string) string {
	v := l.Get(key)
	if v.Type == gjson.String {
		return v.Str
	}
	return ""
}

// Path returns the value at a gjson path below the line.
func (l *Line) Path(path string) gjson.Result { return gjson.Get(l.JSON, path) }
