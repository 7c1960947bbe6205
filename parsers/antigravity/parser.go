package antigravity

import (
	"math"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// parser is the state of one agy stream: which step's message is open and
// which tool step is running. It keeps no text: the session does.
type parser struct {
	out  parsers.Out
	msg  string // the agent_response step whose message is open ("" none)
	tool string // the tool step last started and not yet ended

	// The process's init, for the session.start of each later turn: with
	// --input-format stream-json one process answers several turns, one
	// result each, and a turn begun after a result is a run of its own
	// (its exit status is its result's, or 3 without one).
	conv, model, cwd string
	ended            bool // a result ended the last turn
}

func newParser() *parser { return &parser{} }

// Parse handles one line.
func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit = emit
	switch ev := l.Str("event"); ev {
	case "init":
		return p.init(l)
	case "step_update":
		if p.ended {
			if err := p.nextTurn(); err != nil {
				return err
			}
		}
		return p.step(l, readStep(l, l.Get("step_update").Raw))
	case "result":
		return p.result(l, l.Get("result").Raw)
	case "command_result":
		return p.command(l, l.Get("command").Raw)
	case "":
		if l.Has("status") && l.Has("conversation_id") {
			return p.jsonResult(l)
		}
	}
	return p.out.Unknown(l.Str("event"), l.JSON)
}

// Finish stops the open message; a tool step still running is left to
// the session, which ends it as incomplete.
func (p *parser) Finish(emit parsers.Emit) error {
	p.out.Emit = emit
	return p.closeMsg()
}

// init begins a run: one per process.
func (p *parser) init(l *parsers.Line) error {
	if err := p.closeMsg(); err != nil {
		return err
	}
	p.tool, p.ended = "", false
	in := l.Get("init").Raw
	e := p.out.New(streaming.KindSessionStart)
	e.SessionID = l.Str("conversation_id")
	defer func() {
		p.conv, p.model, p.cwd = strings.Clone(e.SessionID), strings.Clone(e.Model), strings.Clone(e.CWD)
	}()
	for f := l.FieldsOf(in); f.Next(); {
		switch f.Key {
		case "model":
			e.Model = l.Text(f.Raw)
		case "cwd":
			e.CWD = l.Text(f.Raw)
		case "tools":
			for it := l.ElementsOf(f.Raw); it.Next(); {
				if s := it.Value().Str; s != "" {
					e.Tools = append(e.Tools, s)
				}
			}
		}
	}
	return p.out.Push()
}

// nextTurn begins the run of a turn that follows a result in the same
// process.
func (p *parser) nextTurn() error {
	p.ended = false
	e := p.out.New(streaming.KindSessionStart)
	e.SessionID, e.Model, e.CWD = p.conv, p.model, p.cwd
	return p.out.Push()
}

// stepID is a step's identity: its conversation and index (the session
// scopes it to the run that init began, so a log holding one run twice
// shows both).
func (p *parser) stepID(l *parsers.Line, s *step) string {
	return l.Text(s.conv) + "/" + s.index
}

// step is one step_update.
func (p *parser) step(l *parsers.Line, s step) error {
	typ := l.Text(s.typ)
	switch typ {
	case "agent_response":
		return p.response(l, &s)
	case "tool":
		return p.toolStep(l, &s)
	case "user_input":
		// A new turn: the prompt is not echoed.
		return p.closeMsg()
	case "checkpoint", "unknown":
		// Bookkeeping (docs/formats/antigravity.md): not shown.
		return nil
	case "system_message":
		if t := s.say(l); t != "" {
			return p.out.Status(t, streaming.LevelInfo)
		}
		return nil
	case "error_message":
		if err := p.closeMsg(); err != nil {
			return err
		}
		// Its text, when it has one; else the result that follows says
		// what went wrong.
		if t := s.say(l); t != "" {
			e := p.out.New(streaming.KindError)
			e.Text = t
			return p.out.Push()
		}
		return nil
	}
	return p.out.Unknown("step_update/"+typ, l.JSON)
}

// response is an agent_response step: one model call. Its text and
// thinking chunks are deltas of the step's message; its terminal update
// stops the message and carries the call's usage.
func (p *parser) response(l *parsers.Line, s *step) error {
	id := p.stepID(l, s)
	think, text := l.Text(s.thinking), l.Text(s.text)
	if think != "" || text != "" {
		if err := p.openMsg(id); err != nil {
			return err
		}
		for _, c := range [...]struct {
			k streaming.Kind
			t string
		}{{streaming.KindThinkingDelta, think}, {streaming.KindTextDelta, text}} {
			if err := p.out.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, c.k, 0, c.t, streaming.Delta); err != nil {
				return err
			}
		}
	}
	if !terminal(l.Text(s.state)) {
		return nil
	}
	if p.msg == id {
		if err := p.closeMsg(); err != nil {
			return err
		}
	}
	if u, ok := usage(l, s.usage); ok {
		e := p.out.New(streaming.KindUsage)
		e.Usage = &u
		return p.out.Push()
	}
	return nil
}

func terminal(state string) bool { return state == "DONE" || state == "ERROR" }

// openMsg opens the message of step id, stopping another one.
func (p *parser) openMsg(id string) error {
	if p.msg == id {
		return nil
	}
	if err := p.closeMsg(); err != nil {
		return err
	}
	p.msg = strings.Clone(id)
	return p.out.Start(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
}

func (p *parser) closeMsg() error {
	if p.msg == "" {
		return nil
	}
	m := parsers.Msg{ID: p.msg, Role: streaming.RoleAssistant}
	p.msg = ""
	return p.out.Stop(m)
}

// usage reads a usage object: thinking tokens are part of output_tokens
// already, cache reads are reported apart.
func usage(l *parsers.Line, raw string) (streaming.Usage, bool) {
	if !strings.HasPrefix(raw, "{") {
		return streaming.Usage{}, false
	}
	var u streaming.Usage
	for f := l.FieldsOf(raw); f.Next(); {
		switch f.Key {
		case "input_tokens":
			u.InputTokens = parsers.Value(f.Raw).Int()
		case "output_tokens":
			u.OutputTokens = parsers.Value(f.Raw).Int()
		case "cache_read_tokens":
			u.CacheReadTokens = parsers.Value(f.Raw).Int()
		}
	}
	return u, true
}

// seconds turns duration_seconds (float, with binary noise) into ms.
func seconds(raw string) int64 {
	if raw == "" {
		return 0
	}
	return int64(math.Round(parsers.Value(raw).Float() * 1000))
}

// result ends a turn. Its status decides: SUCCESS is success; ERROR (a
// tool error the model then explained included: agy exits 0 there, but
// the run reports an error) and CANCELED (a permission auto-denied) are
// failures. The response repeats the streamed answer; the session shows
// it only when nothing was streamed.
func (p *parser) result(l *parsers.Line, raw string) error {
	if err := p.closeMsg(); err != nil {
		return err
	}
	if p.tool != "" {
		// A tool step still ACTIVE when the turn ends (a timeout, SIGINT)
		// never ends: agy leaves it, and its shell, behind.
		e := p.out.New(streaming.KindToolEnd)
		e.ID, e.Status = p.tool, streaming.ToolIncomplete
		p.tool = ""
		if err := p.out.Push(); err != nil {
			return err
		}
	}
	p.ended = true
	e := p.out.New(streaming.KindResult)
	for f := l.FieldsOf(raw); f.Next(); {
		switch f.Key {
		case "status":
			st := l.Text(f.Raw)
			e.OK = st == "SUCCESS"
			if !e.OK && e.Reason == "" {
				e.Reason = strings.ToLower(st)
			}
		case "response":
			e.Text = l.Text(f.Raw)
		case "error":
			if m := l.Text(f.Raw); m != "" {
				e.Reason = m
			}
		case "duration_seconds":
			e.DurationMS = seconds(f.Raw)
		case "num_turns":
			e.Turns = int(parsers.Value(f.Raw).Int())
		case "usage":
			if u, ok := usage(l, f.Raw); ok {
				e.Usage = &u
			}
		}
	}
	if e.OK {
		e.Reason = ""
	}
	return p.out.Push()
}

// jsonResult is --output-format json: the bare result object, the whole
// run in one line.
func (p *parser) jsonResult(l *parsers.Line) error {
	e := p.out.New(streaming.KindSessionStart)
	e.SessionID = l.Str("conversation_id")
	if err := p.out.Push(); err != nil {
		return err
	}
	return p.result(l, l.JSON)
}

// command is a slash command's or subcommand's output (agy models).
func (p *parser) command(l *parsers.Line, raw string) error {
	e := p.out.New(streaming.KindStatus)
	e.Level = streaming.LevelInfo
	e.Text = "command " + l.Field(raw, "name").String()
	if d := l.FieldRaw(raw, "data"); d != "" {
		e.Text += ": " + parsers.Clip(d, 400)
	}
	return p.out.Push()
}
