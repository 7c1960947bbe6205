package pi

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// parser is the state of one pi stream: the session it reads, where the
// run stands and the ids it gave. It keeps no text: the session does.
type parser struct {
	out parsers.Out // scratch event and the line's Emit; out.Time is the event's time (message timestamps)
	ids parsers.IDs // message and call ids: pi's messages have none

	session, cwd string // from the header, for every run of the process

	started  bool // session.start was sent for the current run
	resulted bool // the current run's result was sent: a later agent_start begins another run
	ended    bool // agent_end (or agent_settled) came since the last agent_start

	msg   string // the assistant message being written
	user  string // the user message being written
	execs bool   // tool_execution_* lines came: they, not toolResult messages, end calls

	run run
}

// run is what the current run has shown of its outcome.
type run struct {
	turns    int
	answered bool   // an assistant message ended in this run
	stop     string // the last assistant message's stopReason
	errMsg   string // and its errorMessage
	provider string
	model    string
	usage    streaming.Usage
	hasUsage bool
	retrying bool // the last agent_end said willRetry
}

func newParser() *parser { return &parser{} }

// Parse handles one line.
func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit, p.out.Time = emit, time.Time{}
	typ := l.Str("type")
	if typ == "session" {
		return p.header(l)
	}
	if typ == "agent_start" {
		return p.agentStart()
	}
	if !p.started || p.resulted && inRun(typ) {
		// A stream joined mid-way (or cut from its header), or a run's
		// events after the last run ended with no agent_start between (a
		// log cut down to its agent_end lines): a run begins with what
		// comes.
		if err := p.begin(); err != nil {
			return err
		}
	}
	p.execs = p.execs || strings.HasPrefix(typ, "tool_execution_")
	switch typ {
	case "turn_start":
		p.run.turns++
		return nil
	case "message_start":
		return p.messageStart(l.Get("message"))
	case "message_update":
		return p.messageUpdate(l.Get("assistantMessageEvent"))
	case "message_end":
		return p.messageEnd(l.Get("message"))
	case "tool_execution_start":
		return p.toolStart(l.Str("toolCallId"), l.Str("toolName"), l.Get("args"))
	case "tool_execution_update":
		return p.toolUpdate(l)
	case "tool_execution_end":
		return p.toolEnd(l)
	case "agent_end":
		return p.agentEnd(l)
	case "agent_settled":
		// The newest builds' last line: retries and queued prompts are done.
		p.run.retrying = false
		if p.ended && !p.resulted {
			return p.result()
		}
		return nil
	case "turn_end", "queue_update", "session_info_changed", "thinking_level_changed", "entry_appended",
		"bash_execution_update", "extension_ui_request", "summarization_retry_start", "summarization_retry_end":
		// Repeats of what message_end said, and bookkeeping with nothing
		// to show (docs/formats/pi.md).
		return nil
	}
	return p.sessionEvent(l, typ)
}

// inRun reports the events that belong to a run (not the session-level
// events that may follow its end: retries, compaction, settling).
func inRun(typ string) bool {
	switch typ {
	case "turn_start", "turn_end", "message_start", "message_update", "message_end",
		"tool_execution_start", "tool_execution_update", "tool_execution_end", "agent_end":
		return true
	}
	return false
}

// Finish ends the stream: an open message is closed; a run without its
// final agent_end stays incomplete.
func (p *parser) Finish(emit parsers.Emit) error {
	p.out.Emit = emit
	return p.closeMsg()
}

// header is the session line: a new session begins a run (a second header
// is another process's output appended to the log).
func (p *parser) header(l *parsers.Line) error {
	if err := p.closeMsg(); err != nil {
		return err
	}
	p.session, p.cwd = strings.Clone(l.Str("id")), strings.Clone(l.Str("cwd"))
	if t := parsers.TimeOf(l.Get("timestamp")); !t.IsZero() {
		p.out.Time = t
	}
	return p.begin()
}

// agentStart begins a prompt's run. The first after the header is the
// header's run; one after a retry goes on with the same run; one after a
// finished run (a further prompt of the same process) begins another.
func (p *parser) agentStart() error {
	p.ended = false
	if !p.started || p.resulted {
		return p.begin()
	}
	return nil
}

// begin sends session.start for a new run and forgets the last run.
func (p *parser) begin() error {
	if err := p.closeMsg(); err != nil {
		return err
	}
	p.started, p.resulted, p.ended = true, false, false
	p.run = run{}
	e := p.out.New(streaming.KindSessionStart)
	e.SessionID, e.CWD = p.session, p.cwd
	return p.out.Push()
}

// agentEnd ends a prompt's run, unless pi is about to retry it. A run
// that showed no assistant message (a log cut down to its agent_end
// lines) shows the ones agent_end repeats.
func (p *parser) agentEnd(l *parsers.Line) error {
	if err := p.closeMsg(); err != nil {
		return err
	}
	p.ended = true
	if !p.run.answered {
		var err error
		l.Get("messages").ForEach(func(_, m gjson.Result) bool {
			if m.Get("role").Str == "assistant" {
				err = p.messageEnd(m)
			}
			return err == nil
		})
		if err != nil {
			return err
		}
	}
	p.run.retrying = l.Get("willRetry").Bool()
	if p.run.retrying || p.resulted {
		return nil
	}
	return p.result()
}

// result sends the run's outcome: its last assistant message's stop
// reason. An error or an abort fails the run, said at full strength.
func (p *parser) result() error {
	p.resulted = true
	r := &p.run
	reason := ""
	ok := true
	switch r.stop {
	case "error", "aborted":
		ok = false
		reason = r.errMsg
		if reason == "" {
			reason = "request " + r.stop
		}
		if who := r.who(); who != "" {
			reason += " (" + who + ")"
		}
		e := p.out.New(streaming.KindError)
		e.Text, e.Fatal = reason, true
		if err := p.out.Push(); err != nil {
			return err
		}
	case "length":
		reason = "length"
	}
	e := p.out.New(streaming.KindResult)
	e.OK, e.Reason, e.Turns = ok, reason, r.turns
	if r.hasUsage {
		e.Usage = r.total()
	}
	return p.out.Push()
}

// total is the run's usage so far.
func (r *run) total() *streaming.Usage {
	u := r.usage
	u.CostUSD = math.Round(u.CostUSD*1e9) / 1e9 // sums of floats: 0.0006, not 0.0006000000000000001
	return &u
}

// who names the model that answered: provider/model.
func (r *run) who() string {
	switch {
	case r.provider != "" && r.model != "":
		return r.provider + "/" + r.model
	case r.model != "":
		return r.model
	}
	return r.provider
}

// sessionEvent handles the session-level events that have something to
// say: retries, compaction, extension errors, failed RPC commands.
func (p *parser) sessionEvent(l *parsers.Line, typ string) error {
	text, level := "", streaming.LevelInfo
	switch typ {
	case "auto_retry_start":
		text = fmt.Sprintf("retrying (attempt %d of %d)", l.Get("attempt").Int(), l.Get("maxAttempts").Int())
		if d := l.Get("delayMs").Int(); d > 0 {
			text += fmt.Sprintf(" in %gs", float64(d)/1000)
		}
		if m := l.Str("errorMessage"); m != "" {
			text += " after: " + m
		}
		level = streaming.LevelWarning
	case "auto_retry_end":
		if l.Get("success").Bool() {
			return nil
		}
		text, level = fmt.Sprintf("retries gave up after attempt %d", l.Get("attempt").Int()), streaming.LevelWarning
		if m := l.Str("finalError"); m != "" {
			text += ": " + m
		}
	case "compaction_start", "auto_compaction_start":
		text = "compacting the context"
		if r := l.Str("reason"); r != "" {
			text += " (" + r + ")"
		}
	case "compaction_end", "auto_compaction_end":
		switch m := l.Str("errorMessage"); {
		case m != "":
			text, level = "compaction failed: "+m, streaming.LevelWarning
		case l.Get("aborted").Bool():
			text, level = "compaction aborted", streaming.LevelWarning
		default:
			text = "context compacted"
		}
	case "extension_error":
		text, level = "extension error", streaming.LevelWarning
		if path := l.Str("extensionPath"); path != "" {
			text += " (" + path + ")"
		}
		text += ": " + l.Get("error").String()
	case "response":
		// RPC mode's answer to a command.
		if l.Get("success").Bool() || !l.Has("success") {
			return nil
		}
		text, level = "command "+l.Str("command")+" failed: "+l.Get("error").String(), streaming.LevelWarning
	default:
		return p.out.Unknown(typ, l.JSON)
	}
	return p.out.Status(text, level)
}
