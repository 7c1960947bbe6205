package parsers

import (
	"strconv"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/streaming"
)

// The parser kit: every parser builds its events with an Out and names
// what the wire leaves unnamed with IDs and LineID, so that a parser holds
// only what its agent's format needs.

// Msg names a message for Out: its id, its author's role and, for a
// subagent's message, the tool call that started the subagent.
type Msg struct {
	ID, Role, Parent string
}

// Out builds a parser's events in one scratch event and hands them to the
// Emit of the line being parsed. A parser keeps one, sets Emit at the
// start of Parse and Finish, and either fills Ev after New and hands it
// over with Push, Snapshot, Final, Restate or Send, or uses the shapes
// every agent sends (Start, Stop, Text, Message, Status, Unknown).
type Out struct {
	Ev   streaming.Event
	Emit Emit
	// Agent, when set, is stamped on every event sent: a relative whose
	// stream says which it is (Qwen or Amp, read by the Claude parser).
	Agent string
	// Time is stamped on every event sent without a time of its own: the
	// time of the line, for agents whose lines carry one.
	Time time.Time
}

// New makes Ev a new event of the given kind and returns it.
func (o *Out) New(kind streaming.Kind) *streaming.Event {
	o.Ev = streaming.Event{Kind: kind}
	return &o.Ev
}

// Push hands Ev over: new text for a text-like event, and every other
// event.
func (o *Out) Push() error { return o.Send(streaming.Delta) }

// Snapshot hands Ev over as the whole block or output so far.
func (o *Out) Snapshot() error { return o.Send(streaming.Snapshot) }

// Final hands Ev over as the complete block or output.
func (o *Out) Final() error { return o.Send(streaming.Final) }

// Restate hands Ev over as a piece of the agent repeating a message's
// current block (Ev.Restates names that message; see Emit).
func (o *Out) Restate() error { return o.Send(streaming.Restate) }

// Send hands Ev over as mode says (see Emit).
func (o *Out) Send(mode streaming.Mode) error {
	if o.Agent != "" {
		o.Ev.Agent = o.Agent
	}
	if o.Ev.Time.IsZero() {
		o.Ev.Time = o.Time
	}
	return Send(o.Emit, mode, &o.Ev)
}

// Start sends message.start for m: only where the wire begins a message
// (it resets the message).
func (o *Out) Start(m Msg) error {
	ev := o.New(streaming.KindMessageStart)
	ev.Message, ev.Role, ev.Parent = m.ID, m.Role, m.Parent
	return o.Push()
}

// Stop sends message.stop for m.
func (o *Out) Stop(m Msg) error {
	ev := o.New(streaming.KindMessageStop)
	ev.Message, ev.Role, ev.Parent = m.ID, m.Role, m.Parent
	return o.Push()
}

// Text sends text of block of m (kind text.delta or thinking.delta) as
// mode says it is; empty text sends nothing.
func (o *Out) Text(m Msg, kind streaming.Kind, block int, text string, mode streaming.Mode) error {
	if text == "" {
		return nil
	}
	ev := o.New(kind)
	ev.Message, ev.Role, ev.Parent, ev.Block, ev.Text = m.ID, m.Role, m.Parent, block, text
	return o.Send(mode)
}

// Message sends a whole message of one block: its start, its text as a
// final, its stop. Empty text sends nothing.
func (o *Out) Message(m Msg, kind streaming.Kind, text string) error {
	if text == "" {
		return nil
	}
	if err := o.Start(m); err != nil {
		return err
	}
	if err := o.Text(m, kind, 0, text, streaming.Final); err != nil {
		return err
	}
	return o.Stop(m)
}

// Blocks sends a whole message of text blocks, one a text: its start,
// each text as a final (an empty one sends nothing), its stop. Unlike
// Message, it sends the message whatever its texts.
func (o *Out) Blocks(m Msg, texts ...string) error {
	if err := o.Start(m); err != nil {
		return err
	}
	for i, t := range texts {
		if err := o.Text(m, streaming.KindTextDelta, i, t, streaming.Final); err != nil {
			return err
		}
	}
	return o.Stop(m)
}

// Status sends a status line at level (streaming.LevelInfo, LevelWarning,
// or "" for none); a blank text sends nothing.
func (o *Out) Status(text, level string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	ev := o.New(streaming.KindStatus)
	ev.Text, ev.Level = text, level
	return o.Push()
}

// Unknown sends a line the parser does not understand, kept whole (raw)
// under its wire type: nothing is dropped silently. An empty typ is
// filled by the decoder (UnknownType).
func (o *Out) Unknown(typ, raw string) error {
	ev := o.New(streaming.KindUnknown)
	ev.Type, ev.Text = typ, raw
	return o.Push()
}

// IDs names what the wire leaves unnamed, one counter for every prefix:
// Next("turn") is "turn1", a later Next("tool") "tool2". The session
// scopes ids to their run, so a counter need never restart.
type IDs struct{ n int }

// Next returns prefix and the next number.
func (g *IDs) Next(prefix string) string {
	g.n++
	return prefix + strconv.Itoa(g.n)
}

// At returns Next(prefix) with the input line it was made on: "tool3@12".
func (g *IDs) At(prefix string, line int) string {
	return g.Next(prefix) + "@" + strconv.Itoa(line)
}

// LineID names a thing by the input line it came on, for a wire that
// sends one of them per line: "msg@12".
func LineID(prefix string, line int) string {
	return prefix + "@" + strconv.Itoa(line)
}
