// Package flat makes parsers for flat formats: one JSON object a line, a
// field that names what the line is, and whole things in it (a message, a
// tool call, a result) or single pieces of text. An agent describes its
// format as a Format, what each type of line becomes and where its ids,
// names, inputs, outputs, errors and figures are, and takes a Parser from
// it; a line that needs more than the description says has a hook, which
// uses the same Parser's methods.
//
//	var format = &flat.Format{Type: "type", Rules: map[string]flat.Rule{
//		"text":      {What: flat.Text, Text: "data"},
//		"tool_call": {What: flat.Call, ID: "id", Name: "name", Input: "args"},
//		"end":       {What: flat.Done, Usage: "usage"},
//	}}
//	New: func() parsers.Parser { return flat.New(format) }
//
// The parser keeps what a flat stream leaves to its reader: the message
// its pieces of text belong to, the calls still open (a result without an
// id takes the oldest), whether the run began, failed or ended. It keeps
// no text: the session does.
package flat

import (
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// What is what a type of line becomes.
type What int

// What a line becomes.
const (
	Skip     What = iota // nothing to show: bookkeeping
	Init                 // the run begins: session.start (Session, Model, CWD, Tools)
	Message              // a whole message (Role, ID, Text)
	Text                 // a piece of the assistant's answer (Text)
	Thinking             // a piece of its reasoning (Text)
	Call                 // a tool call begins (ID, Name, Input, Title)
	Return               // a tool call's result (ID, Output, IsError)
	Usage                // the figures of one model call (Usage)
	Fail                 // the run failed (Text): an error that ends it
	Done                 // the run's end (Text: the answer; Usage, Turns, Duration, Reason)
	Note                 // a status line (Text)
)

// Rule says what one type of line becomes and where its fields are, as
// gjson paths below the line ("" for none). Hook, when set, handles the
// line instead; it may call Apply for what the rule says.
type Rule struct {
	What What

	ID, Role, Text, Name, Input, Output, IsError, Title string
	Session, Model, CWD, Tools                          string
	// Usage is where the token figures are ("@this": the line itself),
	// under Anthropic's names or their common variants (see UsageOf).
	Usage, Turns, Duration, Reason string

	Hook func(p *Parser, l *parsers.Line) error
	// Keep: a message held back (Parser.Hold) waits for this line's
	// hook, which may drop it; any other line sends it first.
	Keep bool
}

// Format describes a flat format.
type Format struct {
	// Type is the key that names a line's type ("type"; Kimi's "role").
	Type string
	// Rules are what each type becomes. A type with no rule is an
	// unknown line, kept whole.
	Rules map[string]Rule
	// Millis is a top-level key holding the line's time in Unix epoch
	// milliseconds, when the format has one.
	Millis string
	// Finish is called at the end of input after an open message is
	// closed; nil leaves a run with no Done incomplete.
	Finish func(p *Parser) error
}

// Parser reads one stream of a Format. Its exported methods are for the
// format's hooks.
type Parser struct {
	f   *Format
	Out parsers.Out
	IDs parsers.IDs

	started, done bool
	failed        string // the first fatal error's text

	msg   msgState
	calls []call          // open calls, oldest first
	ended map[string]bool // calls ended in this run
	held  *held

	// Data is the agent's own state, for its hooks.
	Data any
}

type msgState struct {
	id, role string
	block    int
	kind     streaming.Kind // the open block's kind; "" when no message is open
}

type call struct{ id, name string }

type held struct{ id, role, text string }

// New returns a parser for f.
func New(f *Format) *Parser { return &Parser{f: f} }

// Parse handles one line.
func (p *Parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.Out.Emit, p.Out.Time = emit, time.Time{}
	if p.f.Millis != "" {
		if v := l.Get(p.f.Millis); v.Type == gjson.Number {
			p.Out.Time = parsers.TimeOf(v)
		}
	}
	typ := l.Str(p.f.Type)
	r, ok := p.f.Rules[typ]
	if p.held != nil && !(ok && r.Keep) {
		if err := p.Flush(); err != nil {
			return err
		}
	}
	if !ok {
		return p.Out.Unknown(typ, l.JSON)
	}
	// A run begins at its Init line, or at the first line of another
	// kind (a format with no init, a stream joined after it).
	if !p.started && r.What != Init && (r.What != Skip || r.Hook != nil) {
		if err := p.Begin("", "", "", nil); err != nil {
			return err
		}
	}
	if r.Hook != nil {
		return r.Hook(p, l)
	}
	return p.Apply(&r, l)
}

// Apply does what a rule says with a line.
func (p *Parser) Apply(r *Rule, l *parsers.Line) error {
	get := func(path string) gjson.Result {
		if path == "" {
			return gjson.Result{}
		}
		return l.Path(path)
	}
	str := func(path string) string { return get(path).String() }
	switch r.What {
	case Skip:
		return nil
	case Init:
		var tools []string
		get(r.Tools).ForEach(func(_, t gjson.Result) bool {
			tools = append(tools, t.String())
			return true
		})
		return p.Begin(str(r.Session), str(r.Model), str(r.CWD), tools)
	case Message:
		role := str(r.Role)
		if role == "" {
			role = streaming.RoleAssistant
		}
		return p.Say(str(r.ID), role, str(r.Text))
	case Text:
		return p.Delta("", streaming.KindTextDelta, get(r.Text).String())
	case Thinking:
		return p.Delta("", streaming.KindThinkingDelta, get(r.Text).String())
	case Call:
		return p.Call(str(r.ID), str(r.Name), parsers.JSONText(get(r.Input)), str(r.Title))
	case Return:
		st := streaming.ToolOK
		if get(r.IsError).Bool() {
			st = streaming.ToolError
		}
		return p.End(Result{ID: str(r.ID), Output: str(r.Output), Status: st})
	case Usage:
		if err := p.Close(); err != nil {
			return err
		}
		u := UsageOf(get(r.Usage))
		if u == nil {
			return nil
		}
		e := p.Out.New(streaming.KindUsage)
		e.Usage = u
		return p.Out.Push()
	case Fail:
		return p.Fail(str(r.Text))
	case Done:
		return p.Done(Outcome{Answer: str(r.Text), Usage: UsageOf(get(r.Usage)), Turns: int(get(r.Turns).Int()),
			DurationMS: get(r.Duration).Int(), Reason: str(r.Reason)})
	case Note:
		return p.Out.Status(str(r.Text), streaming.LevelInfo)
	}
	return p.Out.Unknown("", l.JSON)
}

// Finish ends the stream: a held message is sent, an open message closed,
// then the format's Finish.
func (p *Parser) Finish(emit parsers.Emit) error {
	p.Out.Emit, p.Out.Time = emit, time.Time{}
	if err := p.Flush(); err != nil {
		return err
	}
	if err := p.Close(); err != nil {
		return err
	}
	if p.f.Finish != nil && p.started && !p.done {
		return p.f.Finish(p)
	}
	return nil
}

// Begin sends session.start: a new run.
func (p *Parser) Begin(session, model, cwd string, tools []string) error {
	if err := p.Close(); err != nil {
		return err
	}
	p.started, p.done, p.failed, p.calls = true, false, "", p.calls[:0]
	clear(p.ended)
	e := p.Out.New(streaming.KindSessionStart)
	e.SessionID, e.Model, e.CWD, e.Tools = session, model, cwd, tools
	return p.Out.Push()
}

// Started reports whether a run began and has not ended.
func (p *Parser) Started() bool { return p.started && !p.done }

// Failed is the text of the run's fatal error, "" when none came.
func (p *Parser) Failed() string { return p.failed }

// Say sends a whole message; an empty id is given one.
func (p *Parser) Say(id, role, text string) error {
	if err := p.Close(); err != nil {
		return err
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if id == "" {
		id = p.IDs.Next("msg")
	}
	return p.Out.Message(parsers.Msg{ID: id, Role: role}, streaming.KindTextDelta, text)
}

// Hold keeps a whole message back until the next line: a line whose rule
// has Keep may drop it (Droid's error repeats its last message); any
// other line, and the end of input, send it.
func (p *Parser) Hold(id, role, text string) error {
	if err := p.Flush(); err != nil {
		return err
	}
	if err := p.Close(); err != nil {
		return err
	}
	p.held = &held{strings.Clone(id), role, strings.Clone(text)}
	return nil
}

// Held is the text of the message held back, "" when none is.
func (p *Parser) Held() string {
	if p.held == nil {
		return ""
	}
	return p.held.text
}

// Drop forgets the message held back.
func (p *Parser) Drop() { p.held = nil }

// Flush sends the message held back.
func (p *Parser) Flush() error {
	h := p.held
	if h == nil {
		return nil
	}
	p.held = nil
	return p.Say(h.id, h.role, h.text)
}

// Delta sends a piece of text (kind text.delta or thinking.delta) of the
// message id (role assistant), opening it when it is not the one open; an
// empty id continues the open message, or opens one. A change of kind
// begins a new block. Text is never trimmed.
func (p *Parser) Delta(id string, kind streaming.Kind, text string) error {
	return p.DeltaAs(id, streaming.RoleAssistant, kind, text)
}

// DeltaAs is Delta for a message of another role.
func (p *Parser) DeltaAs(id, role string, kind streaming.Kind, text string) error {
	if text == "" {
		return nil
	}
	if p.msg.kind != "" && (id != "" && id != p.msg.id || role != p.msg.role) {
		if err := p.Close(); err != nil {
			return err
		}
	}
	if p.msg.kind == "" {
		if id == "" {
			id = p.IDs.Next("msg")
		}
		p.msg = msgState{id: strings.Clone(id), role: role, kind: kind}
		if err := p.Out.Start(parsers.Msg{ID: p.msg.id, Role: role}); err != nil {
			return err
		}
	} else if kind != p.msg.kind {
		p.msg.block++
		p.msg.kind = kind
	}
	return p.Out.Text(parsers.Msg{ID: p.msg.id, Role: role}, kind, p.msg.block, text, streaming.Delta)
}

// InMessage reports whether message id is the one open.
func (p *Parser) InMessage(id string) bool { return p.msg.kind != "" && p.msg.id == id }

// Close ends the open message.
func (p *Parser) Close() error {
	if p.msg.kind == "" {
		return nil
	}
	m := parsers.Msg{ID: p.msg.id, Role: p.msg.role}
	p.msg = msgState{}
	return p.Out.Stop(m)
}
