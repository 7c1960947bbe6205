package acp

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// entry is the kind of the last thing shown (the "last entry" of
// docs/formats/acp.md): a chunk appends to the open message only when
// the last entry is that message's kind.
type entry uint8

const (
	entNone entry = iota
	entAgent
	entThought
	entUser
	entOther // a tool call, permission request, plan, mode change, …
)

// agentReq is a pending agent→client request.
type agentReq struct {
	method   string
	permID   string // permission: the permission event id
	toolID   string
	options  []streaming.PermissionOption
	terminal string // terminal/output, terminal/wait_for_exit
}

// parser is the state of one ACP transcript.
type parser struct {
	out parsers.Out
	ids parsers.IDs
	upd parsers.Object // the update of the line being read

	// run state
	started   bool // a session.start was emitted for the current run
	turnDone  bool // a prompt response ended a turn of the current run
	prompted  bool // the current run has its prompt
	sessionID string
	cwd       string
	model     string
	mode      string // current mode id
	agentInfo string // from the initialize response, shown once after session.start
	loading   bool   // inside a session/load history replay
	lastCost  *float64

	last entry
	msg  *message // the open chunk message

	tools     map[string]*tool
	toolOrder []string          // open tool ids, in start order
	terminals map[string]string // terminalId → toolCallId

	clientReqs map[string]string    // request id → method (client→agent)
	agentReqs  map[string]*agentReq // request id → agent→client request

	commands []string // available_commands_update: kept, not shown
	lastPlan []streaming.PlanEntry
	hasPlan  bool
}

func newParser() *parser {
	return &parser{
		tools:      make(map[string]*tool),
		terminals:  make(map[string]string),
		clientReqs: make(map[string]string),
		agentReqs:  make(map[string]*agentReq),
	}
}

func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit = emit
	if !l.Has("jsonrpc") {
		if m := l.Get("msg"); m.IsObject() && m.Get("jsonrpc").Exists() {
			return p.Parse(parsers.NewLine(m.Raw, l.N), emit)
		}
		if l.Has("sessionUpdate") {
			return p.update(l, p.upd.Reset(l.JSON))
		}
		if u := l.Get("update"); u.Get("sessionUpdate").Exists() {
			if s := l.Str("sessionId"); s != "" && p.sessionID == "" {
				p.sessionID = s
			}
			return p.update(l, p.upd.Reset(u.Raw))
		}
	}
	method := l.Str("method")
	switch {
	case method == "session/update":
		if s := l.Path("params.sessionId").Str; s != "" && p.sessionID == "" {
			p.sessionID = s
		}
		if u := l.Path("params.update"); u.IsObject() {
			return p.update(l, p.upd.Reset(u.Raw))
		}
	case method != "" && l.Has("id"):
		return p.request(l, method)
	case method != "":
		return p.notification(l, method)
	case l.Has("id") && (l.Has("result") || l.Has("error")):
		return p.response(l)
	}
	return p.unknown(l, l.Str("type"))
}

// unknown shows a line it does not understand; it is an entry of its own.
func (p *parser) unknown(l *parsers.Line, typ string) error {
	if err := p.entry(l); err != nil {
		return err
	}
	return p.out.Unknown(typ, l.JSON)
}

// Finish closes the open message. Open tool calls are left to the session,
// which ends them as incomplete.
func (p *parser) Finish(emit parsers.Emit) error {
	p.out.Emit = emit
	return p.closeMsg()
}

// ensureRun emits the session.start of a run when none was: a transcript
// may begin anywhere (agent stdout only, a prompt without session/new).
func (p *parser) ensureRun() error {
	if p.started {
		return nil
	}
	return p.startRun()
}

// startRun begins a run: at session/new or session/load, at the first
// line of a transcript, and at each prompt after a finished turn (so a
// prompt left without its response ends the stream as incomplete).
func (p *parser) startRun() error {
	if err := p.closeMsg(); err != nil {
		return err
	}
	p.started, p.turnDone, p.prompted, p.last = true, false, false, entNone
	p.toolOrder = p.toolOrder[:0]
	clear(p.tools)
	clear(p.terminals)
	ev := p.out.New(streaming.KindSessionStart)
	ev.SessionID, ev.CWD, ev.Model = p.sessionID, p.cwd, p.model
	if err := p.out.Push(); err != nil {
		return err
	}
	if p.agentInfo != "" {
		ev = p.out.New(streaming.KindStatus)
		ev.Text, ev.Level = p.agentInfo, streaming.LevelInfo
		p.agentInfo = ""
		return p.out.Push()
	}
	return nil
}

// entry marks a new entry that is not a chunk message: the open message
// ends.
func (p *parser) entry(l *parsers.Line) error {
	if err := p.ensureRun(); err != nil {
		return err
	}
	p.last = entOther
	return p.closeMsg()
}

func (p *parser) status(text, level string) error {
	if err := p.ensureRun(); err != nil {
		return err
	}
	return p.out.Status(text, level)
}
