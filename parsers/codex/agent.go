// Package codex parses what Codex writes into streaming events: `codex exec
// --json`, the app-server's JSON-RPC notifications (IDE and SDK logs) and
// the session rollout files of ~/.codex/sessions.
//
// Three generations of the exec format are read, recognised line by line (never
// by version): the current thread/turn/item format (thread.started,
// turn.*, item.*), the 0.42 experimental one (session.created, item_type,
// assistant_message) and the legacy protocol dump ({"id","msg"} lines after
// a config summary and a prompt line). See docs/formats/codex.md.
//
// The agent reads three families of input (readers, below), each with
// files of one concern: `codex exec --json` in detect.go (Detect), agent.go
// (the parser, runs and turns), items.go (items that carry text, plans and
// warnings), tools.go (tool items), legacy.go and legacytext.go (the
// legacy protocol), output.go (tool output text) and text.go (small text,
// JSON and usage helpers); the app-server's notifications in appserver.go
// (threads and turns), appitems.go, apptools.go and appasks.go (approvals);
// rollout files in rollout.go (turns), rolloutitems.go and
// rollouttools.go. describe.go describes the tool items exec and the
// app-server both send, over a table of their two spellings; edits.go
// reads the file changes of every family's calls (tools, Agent.Tools).
package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Agent is the codex format for the registry.
var Agent = parsers.Agent{
	Name:   "codex",
	Detect: readers.Detect,
	New:    readers.New,
	Tools:  tools,
}

// readers are the three families of input the codex agent reads, told
// apart line by line: `codex exec --json` (parser), the app-server's
// JSON-RPC notifications (appServer, appserver.go) and the session
// rollout files of ~/.codex/sessions (rollout, rollout.go).
var readers = parsers.Readers{
	{Detect: Detect, New: func() parsers.Parser { return newParser() }},
	{Detect: detectAppServer, New: func() parsers.Parser { return newAppServer() }},
	{Detect: detectRollout, New: func() parsers.Parser { return newRollout() }},
}

// tool is a tool call the parser has started and not ended.
type tool struct {
	name     string
	title    string
	input    string
	summary  string // legacy patch_apply: the change list from the begin event
	streamed bool   // output deltas were sent for it
}

// parser is the state of one Codex stream.
type parser struct {
	out parsers.Out
	it  parsers.Object // the item of the line being read

	// Runs. A run begins with thread.started (session.created, the legacy
	// config line) or with a turn that follows another turn; item ids are
	// per process, so ids of later runs get a "#n" suffix (key).
	active   bool // the current run has seen a session start, a turn or an item
	started  bool // a session.start was sent for the current run
	turns    int  // turns begun in the current run
	threadID string
	model    string
	cwd      string
	fresh    bool // the last line was the one that sent the session.start
	wasFresh bool // fresh, as it was before the current line

	open  map[string]*tool // started tool calls by key
	order []string         // keys of open tool calls, in start order
	msgs  map[string]bool  // open messages (current items) by key

	lastPlan string // raw JSON of the last plan sent
	lastErr  string // text of the last top-level error of the turn
	failed   bool   // a failing result was sent for the current turn (legacy)
	usage    *streaming.Usage

	ids    parsers.IDs // legacy message ids
	lmsg   lstream
	lrsn   lstream
	lraw   lstream
	chunks map[string][]byte // legacy output bytes held back (a cut UTF-8 sequence)
}

func newParser() *parser {
	p := &parser{
		open:   make(map[string]*tool),
		msgs:   make(map[string]bool),
		chunks: make(map[string][]byte),
	}
	p.lmsg.kind = streaming.KindTextDelta
	p.lrsn.kind = streaming.KindThinkingDelta
	p.lraw.kind = streaming.KindThinkingDelta
	return p
}

// key is the id events carry for a wire id: the id itself (a copy: a
// substring would keep its whole line alive in p.open or p.msgs). Ids are scoped
// to their run by the session (exec resume restarts at item_0 with a new
// session.start).
func (p *parser) key(id string) string { return strings.Clone(id) }

// Parse handles one JSON line.
func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit = emit
	p.wasFresh, p.fresh = p.fresh, false
	if t := l.Str("type"); t != "" {
		return p.typed(l, t)
	}
	if m := l.Get("msg"); m.IsObject() {
		return p.legacy(l, m)
	}
	if pr := l.Get("prompt"); pr.Type == gjson.String {
		return p.legacyPrompt(pr.Str)
	}
	if isConfigLine(l) {
		return p.legacyConfig(l)
	}
	// App-server and rollout lines never come here: dispatch routes them
	// to their own readers.
	return p.unknown(l, l.Str("type"))
}

// typed handles a line with a top-level type: the current and the
// experimental format.
func (p *parser) typed(l *parsers.Line, t string) error {
	switch t {
	case "thread.started":
		return p.sessionStart(l.Str("thread_id"), "", "")
	case "session.created":
		return p.sessionStart(l.Str("session_id"), "", "")
	case "turn.started":
		return p.turnStarted()
	case "turn.completed":
		return p.turnCompleted(l)
	case "turn.failed":
		return p.turnFailed(l)
	case "item.started", "item.updated", "item.completed":
		return p.item(l, t)
	case "item.plan.delta":
		return p.planDelta(l)
	case "error":
		return p.topError(l)
	case "request_user_input":
		return p.requestUserInput(l)
	}
	return p.unknown(l, t)
}

func (p *parser) unknown(l *parsers.Line, t string) error { return p.out.Unknown(t, l.JSON) }

// newRun begins a run: later runs get fresh ids and state.
func (p *parser) newRun() {
	if p.active {
		clear(p.open)
		clear(p.msgs)
		clear(p.chunks)
		p.order = p.order[:0]
	}
	p.active = true
	p.started = false
	p.turns = 0
	p.lastPlan = ""
	p.lastErr = ""
	p.failed = false
	p.usage = nil
	p.resetLegacyText()
}

// sessionStart begins a run with a session.start: thread.started,
// session.created, and the legacy config line and session_configured.
func (p *parser) sessionStart(id, model, cwd string) error {
	if p.wasFresh && id != "" && id == p.threadID {
		p.fresh = true // the same thread.started twice in a row
		return nil
	}
	p.newRun()
	p.threadID, p.model, p.cwd = id, model, cwd
	return p.sendStart()
}

func (p *parser) sendStart() error {
	p.started, p.fresh = true, true
	ev := p.out.New(streaming.KindSessionStart)
	ev.SessionID = p.threadID
	ev.Model = p.model
	ev.CWD = p.cwd
	return p.out.Push()
}

// turnStarted handles turn.started and the legacy task_started. A turn
// after another one in the same run (a log of several turns without a
// thread.started between them) begins a new run: "turn.started resets the
// state".
func (p *parser) turnStarted() error {
	if p.turns > 0 {
		p.newRun()
		if err := p.sendStart(); err != nil {
			return err
		}
	}
	p.active = true
	p.turns++
	p.lastErr = ""
	p.failed = false
	return nil
}

// endTurn closes what the turn left open before its terminal event: tool
// calls that never completed (events dropped, force-completed items) end
// as incomplete.
func (p *parser) endTurn() error {
	if err := p.flushChunks(); err != nil {
		return err
	}
	for len(p.order) > 0 {
		k := p.order[0]
		t := p.open[k]
		p.closeTool(k)
		ev := p.out.New(streaming.KindToolEnd)
		ev.ID = k
		ev.Name = t.name
		ev.Title = t.title
		ev.Status = streaming.ToolIncomplete
		if err := p.out.Push(); err != nil {
			return err
		}
	}
	clear(p.msgs)
	p.resetLegacyText()
	p.lastPlan = ""
	return nil
}

func (p *parser) turnCount() int {
	if p.turns == 0 {
		return 1
	}
	return p.turns
}

// turnCompleted: a successful result with the (cumulative) usage.
func (p *parser) turnCompleted(l *parsers.Line) error {
	if err := p.endTurn(); err != nil {
		return err
	}
	p.active = true
	ev := p.out.New(streaming.KindResult)
	ev.OK = true
	ev.Turns = p.turnCount()
	ev.Usage = usageOf(l.Get("usage"))
	return p.out.Push()
}

// turnFailed: a failing result. The failure is shown as a fatal error too,
// unless the top-level error just before it said the same.
func (p *parser) turnFailed(l *parsers.Line) error {
	if err := p.endTurn(); err != nil {
		return err
	}
	p.active = true
	msg := l.Path("error.message").String()
	if msg == "" {
		msg = l.Str("message")
	}
	if msg == "" {
		msg = "turn failed"
	}
	reason := errorText(msg)
	if msg != p.lastErr {
		ev := p.out.New(streaming.KindError)
		ev.Text = reason
		ev.Fatal = true
		if err := p.out.Push(); err != nil {
			return err
		}
	}
	p.lastErr = ""
	return p.fail(reason)
}

// fail sends a failing result for the current turn.
func (p *parser) fail(reason string) error {
	p.failed = true
	ev := p.out.New(streaming.KindResult)
	ev.OK = false
	ev.Reason = reason
	ev.Turns = p.turnCount()
	ev.Usage = p.usage
	return p.out.Push()
}

// closeTool forgets an open tool call. A later state of it (a repeated
// completion) starts and ends it again: the session, which keeps the ids
// of the run's ended calls, drops both.
func (p *parser) closeTool(k string) {
	delete(p.open, k)
	for i, o := range p.order {
		if o == k {
			p.order = append(p.order[:i], p.order[i+1:]...)
			break
		}
	}
}

// Finish flushes legacy output bytes held back at the end of input.
func (p *parser) Finish(emit parsers.Emit) error {
	p.out.Emit = emit
	return p.flushChunks()
}
