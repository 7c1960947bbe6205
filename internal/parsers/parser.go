package parsers

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/jsonscan"
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

// Emit is how a parser hands events to the session (through the
// Decoder), and says what the Text of a text-like event (text.delta,
// thinking.delta, tool.output.delta) is: Push for new text (a delta), and
// for every other event; Snapshot for the whole block or output so far;
// Final for the complete block or output; Restate for a piece of the
// agent repeating the message's current block (a consolidated
// restatement, an echo of the prompt: the session compares, see
// streaming.Session.Restate). The event may be reused by the
// parser once the call returns. An error (a --strict contract violation,
// a closed output) must be returned by Parse as it is.
//
// *streaming.Session implements it.
type Emit interface {
	Push(ev *streaming.Event) error
	Snapshot(ev *streaming.Event) error
	Final(ev *streaming.Event) error
	Restate(ev *streaming.Event) error
}

// EmitFunc adapts a function to Emit: it is called with each event and
// the way it was handed over (Push: Delta).
type EmitFunc func(mode streaming.Mode, ev *streaming.Event) error

// Push calls f with Delta.
func (f EmitFunc) Push(ev *streaming.Event) error { return f(streaming.Delta, ev) }

// Snapshot calls f with Snapshot.
func (f EmitFunc) Snapshot(ev *streaming.Event) error { return f(streaming.Snapshot, ev) }

// Final calls f with Final.
func (f EmitFunc) Final(ev *streaming.Event) error { return f(streaming.Final, ev) }

// Restate calls f with Restate.
func (f EmitFunc) Restate(ev *streaming.Event) error { return f(streaming.Restate, ev) }

// Send hands ev to emit as mode says: for parsers that decide the mode
// of a text in one place and send it in another.
func Send(emit Emit, mode streaming.Mode, ev *streaming.Event) error {
	switch mode {
	case streaming.Snapshot:
		return emit.Snapshot(ev)
	case streaming.Final:
		return emit.Final(ev)
	case streaming.Restate:
		return emit.Restate(ev)
	}
	return emit.Push(ev)
}

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
	// and should only look at the line's top-level fields (Line.Get). It
	// must keep nothing of the line.
	Detect func(l *Line) Confidence
	// New returns a parser for a fresh stream.
	New func() Parser
	// Borrow declares that the parser copies every string it keeps after
	// Parse returns (ids in its maps, names, pending input): the line's
	// text may then be the reader's buffer, reused for the next line,
	// instead of a copy of it. The decoder copies what the events it emits
	// hold of the line. A parser that keeps a substring of a line without
	// copying it must leave this false.
	Borrow bool
	// Tools is what the agent's tool inputs mean: the decoder fills the
	// subject and the file edits of every tool call from it.
	Tools Tools
}

// maxTop is how many top-level fields a Line indexes; further fields are
// still reachable through Line.Path.
const maxTop = jsonscan.MaxTop

// field is where a top-level field is in the line's text: positions
// only, so indexing a line writes no pointers.
type field struct {
	ks, ke int  // the key, without its quotes
	vs, ve int  // the value
	esc    bool // the key has escapes: its name is in Line.keys
}

// Line is one valid JSON value of the input, with its top-level fields
// indexed in one pass. The JSON string is immutable: results taken from it
// may be kept.
type Line struct {
	// JSON is the line's text.
	JSON string
	// N is the 1-based input line number.
	N int

	top   [maxTop]field
	ntop  int
	mask  uint64               // keyBit of every indexed key: most absent keys miss it
	more  bool                 // more top-level fields than indexed
	built uint32               // fields whose value is in vals
	vals  [maxTop]gjson.Result // values read so far
	keys  [maxTop]string       // unescaped names of keys with escapes
	longs []jsonscan.LongSpan  // long string values, from validation (nil: unknown)
	lend  bool                 // Text may decode into arena
	arena []byte               // strings Text decoded for this line; reused by the next
	// writable: the line's text is the reader's buffer, which the decoder
	// lends and which may be written (see Line.inPlace).
	writable bool
	decoded  []decodedSpan // strings decoded in place
	// scores are the families that scored the line so far (Reader.score):
	// the decoder asks an agent's Readers, then its router asks them again.
	scores  [maxScores]score
	nscores int
}

// maxScores is how many family scores a line keeps.
const maxScores = 4

// score is a family's score of the line.
type score struct {
	r *Reader
	c Confidence
}

// NewLine indexes the top-level fields of json, which must be valid JSON.
func NewLine(json string, n int) *Line {
	l := &Line{}
	l.Reset(json, n)
	return l
}

// keyBit is a key's bit in Line.mask: detectors ask every line for keys
// it mostly lacks, and the mask answers most of them without a search.
func keyBit(k string) uint64 {
	if k == "" {
		return 1
	}
	return 1 << ((uint(len(k)) + uint(k[0])*7 + uint(k[len(k)-1])*13) & 63)
}

// key is the name of the i-th indexed field.
func (l *Line) key(i int) string {
	f := &l.top[i]
	if f.esc {
		return l.keys[i]
	}
	return l.JSON[f.ks:f.ke]
}

// field returns the indexed value of key, read on first use; nil when
// the key is not among the indexed fields.
func (l *Line) field(key string) *gjson.Result {
	i := l.index(key)
	if i < 0 {
		return nil
	}
	if l.built&(1<<i) == 0 {
		f := &l.top[i]
		l.vals[i] = l.valueAt(f.vs, f.ve)
		l.built |= 1 << i
	}
	return &l.vals[i]
}

// index is the position of key among the indexed fields, or -1.
func (l *Line) index(key string) int {
	if l.mask&keyBit(key) == 0 {
		return -1
	}
	for i := 0; i < l.ntop; i++ {
		f := &l.top[i]
		if f.esc {
			if l.keys[i] == key {
				return i
			}
		} else if f.ke-f.ks == len(key) && l.JSON[f.ks:f.ke] == key {
			return i
		}
	}
	return -1
}

// Get returns a top-level field of the line.
func (l *Line) Get(key string) gjson.Result {
	if v := l.field(key); v != nil {
		return *v
	}
	if l.more {
		return gjson.Get(l.JSON, gjson.Escape(key))
	}
	return gjson.Result{}
}

// Has reports whether the line has a top-level field.
func (l *Line) Has(key string) bool {
	if l.index(key) >= 0 {
		return true // (an indexed value is a valid JSON value)
	}
	return l.more && l.Get(key).Exists()
}

// Str returns a top-level string field ("" when absent or not a string).
func (l *Line) Str(key string) string {
	v := l.field(key)
	if v == nil {
		if !l.more {
			return ""
		}
		g := l.Get(key)
		v = &g
	}
	if v.Type == gjson.String {
		return v.Str
	}
	return ""
}

// Path returns the value at a gjson path below the line. A path that
// starts with a plain key and a dot ("origin.kind") finds that field in
// the index and reads only its value for the rest: gjson.Get would scan
// the line from its start.
func (l *Line) Path(path string) gjson.Result {
	if i := strings.IndexByte(path, '.'); i > 0 && plainKey(path[:i]) {
		if v := l.Get(path[:i]); v.Exists() {
			if r := v.Get(path[i+1:]); r.Exists() {
				return r
			}
		}
		return gjson.Result{}
	}
	return gjson.Get(l.JSON, path)
}

// plainKey reports a gjson path component that is a key as written:
// letters, digits, '_' and '-' only (no wildcard, escape or modifier).
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if c := k[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
