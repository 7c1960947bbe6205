package antigravity

import (
	"math"
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// parser is the state of one agy stream: which step's message is open and
// which tool step is running. It keeps no text: the session does.
type parser struct {
	ev   streaming.Event
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

func (p *parser) event(k streaming.Kind) *streaming.Event {
	p.ev = streaming.Event{Kind: k}
	return &p.ev
}

// Parse handles one line.
func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	switch ev := l.Str("event"); ev {
	case "init":
		return p.init(l, emit)
	case "step_update":
		if p.ended {
			if err := p.nextTurn(emit); err != nil {
				return err
			}
		}
		return p.step(l, readStep(l, l.Get("step_update").Raw), emit)
	case "result":
		return p.result(l, l.Get("result").Raw, emit)
	case "command_result":
		return p.command(l, l.Get("command").Raw, emit)
	case "":
		if l.Has("status") && l.Has("conversation_id") {
			return p.jsonResult(l, emit)
		}
	}
	e := p.event(streaming.KindUnknown)
	e.Type = l.Str("event")
	e.Text = l.JSON
	return emit.Push(e)
}

// Finish stops the open message; a tool step still running is left to
// the session, which ends it as incomplete.
func (p *parser) Finish(emit parsers.Emit) error { return p.closeMsg(emit) }

// init begins a run: one per process.
func (p *parser) init(l *parsers.Line, emit parsers.Emit) error {
	if err := p.closeMsg(emit); err != nil {
		return err
	}
	p.tool, p.ended = "", false
	in := l.Get("init").Raw
	e := p.event(streaming.KindSessionStart)
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
	return emit.Push(e)
}

// nextTurn begins the run of a turn that follows a result in the same
// process.
func (p *parser) nextTurn(emit parsers.Emit) error {
	p.ended = false
	e := p.event(streaming.KindSessionStart)
	e.SessionID, e.Model, e.CWD = p.conv, p.model, p.cwd
	return emit.Push(e)
}

// stepID is a step's identity: its conversation and index (the session
// scopes it to the run that init began, so a log holding one run twice
// shows both).
func (p *parser) stepID(l *parsers.Line, s *step) string {
	return l.Text(s.conv) + "/" + s.index
}

// step is one step_update.
func (p *parser) step(l *parsers.Line, s step, emit parsers.Emit) error {
	typ := l.Text(s.typ)
	switch typ {
	case "agent_response":
		return p.response(l, &s, emit)
	case "tool":
		return p.toolStep(l, &s, emit)
	case "user_input":
		// A new turn: the prompt is not echoed.
		return p.closeMsg(emit)
	case "checkpoint", "unknown":
		// Bookkeeping (formats/antigravity.md §2.2): not shown.
		return nil
	case "system_message":
		if t := s.say(l); t != "" {
			e := p.event(streaming.KindStatus)
			e.Text, e.Level = t, streaming.LevelInfo
			return emit.Push(e)
		}
		return nil
	case "error_message":
		if err := p.closeMsg(emit); err != nil {
			return err
		}
		// Its text, when it has one; else the result that follows says
		// what went wrong.
		if t := s.say(l); t != "" {
			e := p.event(streaming.KindError)
			e.Text = t
			return emit.Push(e)
		}
		return nil
	}
	e := p.event(streaming.KindUnknown)
	e.Type = "step_update/" + typ
	e.Text = l.JSON
	return emit.Push(e)
}

// response is an agent_response step: one model call. Its text and
// thinking chunks are deltas of the step's message; its terminal update
// stops the message and carries the call's usage.
func (p *parser) response(l *parsers.Line, s *step, emit parsers.Emit) error {
	id := p.stepID(l, s)
	think, text := l.Text(s.thinking), l.Text(s.text)
	if think != "" || text != "" {
		if err := p.openMsg(id, emit); err != nil {
			return err
		}
		for _, c := range [...]struct {
			k streaming.Kind
			t string
		}{{streaming.KindThinkingDelta, think}, {streaming.KindTextDelta, text}} {
			if c.t == "" {
				continue
			}
			e := p.event(c.k)
			e.Message, e.Role, e.Text = id, streaming.RoleAssistant, c.t
			if err := emit.Push(e); err != nil {
				return err
			}
		}
	}
	if !terminal(l.Text(s.state)) {
		return nil
	}
	if p.msg == id {
		if err := p.closeMsg(emit); err != nil {
			return err
		}
	}
	if u, ok := usage(l, s.usage); ok {
		e := p.event(streaming.KindUsage)
		e.Usage = &u
		return emit.Push(e)
	}
	return nil
}

func terminal(state string) bool { return state == "DONE" || state == "ERROR" }

// openMsg opens the message of step id, stopping another one.
func (p *parser) openMsg(id string, emit parsers.Emit) error {
	if p.msg == id {
		return nil
	}
	if err := p.closeMsg(emit); err != nil {
		return err
	}
	p.msg = strings.Clone(id)
	e := p.event(streaming.KindMessageStart)
	e.Message, e.Role = id, streaming.RoleAssistant
	return emit.Push(e)
}

func (p *parser) closeMsg(emit parsers.Emit) error {
	if p.msg == "" {
		return nil
	}
	e := p.event(streaming.KindMessageStop)
	e.Message, e.Role = p.msg, streaming.RoleAssistant
	p.msg = ""
	return emit.Push(e)
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
func (p *parser) result(l *parsers.Line, raw string, emit parsers.Emit) error {
	if err := p.closeMsg(emit); err != nil {
		return err
	}
	if p.tool != "" {
		// A tool step still ACTIVE when the turn ends (a timeout, SIGINT)
		// never ends: agy leaves it, and its shell, behind.
		e := p.event(streaming.KindToolEnd)
		e.ID, e.Status = p.tool, streaming.ToolIncomplete
		p.tool = ""
		if err := emit.Push(e); err != nil {
			return err
		}
	}
	p.ended = true
	e := p.event(streaming.KindResult)
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
	return emit.Push(e)
}

// jsonResult is --output-format json: the bare result object, the whole
// run in one line.
func (p *parser) jsonResult(l *parsers.Line, emit parsers.Emit) error {
	e := p.event(streaming.KindSessionStart)
	e.SessionID = l.Str("conversation_id")
	if err := emit.Push(e); err != nil {
		return err
	}
	return p.result(l, l.JSON, emit)
}

// command is a slash command's or subcommand's output (agy models).
func (p *parser) command(l *parsers.Line, raw string, emit parsers.Emit) error {
	e := p.event(streaming.KindStatus)
	e.Level = streaming.LevelInfo
	e.Text = "command " + l.Field(raw, "name").String()
	if d := l.FieldRaw(raw, "data"); d != "" {
		e.Text += ": " + parsers.Clip(d, 400)
	}
	return emit.Push(e)
}
