package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Rollout files (~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl) are the
// session files Codex writes for every thread: the envelope
// {timestamp, type, payload} (session_meta, response_item, event_msg,
// turn_context, compacted) and, before it, a bare layout (a meta line
// {id, timestamp, instructions}, then bare response items and
// {"record_type":"state"}). See docs/formats/codex-rollout.md.
//
// Everything the user sees is written twice: response_item holds the
// model's words and tool calls, event_msg the same words again
// (agent_message, agent_reasoning, user_message) with the turn
// boundaries, token counts and aborts. The reader takes the words and
// calls from response_item and only the rest from event_msg; the one
// exception is the user's prompt, which event_msg has without the
// injected context.

// detectRollout scores a line: an envelope line of a rollout type, or the
// bare layout's meta line, is decisive (no other agent writes them).
func detectRollout(l *parsers.Line) parsers.Confidence {
	if t := l.Str("type"); t != "" {
		if rolloutTypes[t] && l.Get("payload").IsObject() && l.Has("timestamp") {
			return parsers.Decisive
		}
		return parsers.No
	}
	if l.Has("record_type") && len(l.JSON) < 200 {
		return parsers.Maybe
	}
	if l.Has("id") && l.Has("timestamp") && l.Has("instructions") && !l.Has("msg") {
		return parsers.Decisive
	}
	return parsers.No
}

// rollout is the state of one rollout file: no text, only where the
// current turn stands.
type rollout struct {
	o         parsers.Out
	envelope  bool          // the file has envelope lines (its prompts come as user_message)
	open      []string      // tool calls started and not ended, in start order
	turn      parsers.Turns // Answered: the last words were the assistant's, no call pending
	usage     *streaming.Usage
	planCalls map[string]bool // update_plan calls: their output is not shown
	sid, cwd  string          // the session, for the start of later turns
	begun     bool            // task_started began the current turn (its prompt follows)
}

// started reports a turn begun by task_started whose prompt is still to
// come; a prompt otherwise begins a turn of its own.
func (r *rollout) started() bool {
	b := r.begun
	r.begun = false
	return b
}

func newRollout() *rollout {
	return &rollout{planCalls: map[string]bool{}}
}

func (r *rollout) Parse(l *parsers.Line, emit parsers.Emit) error {
	r.o.Emit, r.o.Time = emit, parsers.TimeOf(l.Get("timestamp"))
	t := l.Str("type")
	p := l.Get("payload")
	if p.IsObject() && rolloutTypes[t] {
		r.envelope = true
		switch t {
		case "session_meta":
			return r.meta(p)
		case "response_item":
			return r.responseItem(l, p)
		case "event_msg":
			return r.eventMsg(l, p)
		case "compacted":
			msg := "context compacted"
			if m := strings.TrimSpace(p.Get("message").String()); m != "" && !strings.HasPrefix(m, "[REDACTED") {
				msg += ": " + parsers.Clip(m, 200)
			}
			return r.o.Status(msg, streaming.LevelInfo)
		}
		return nil // turn_context: the model and sandbox of each request
	}
	if t == "" {
		if l.Has("record_type") {
			return nil
		}
		if l.Has("instructions") && l.Has("id") {
			return r.meta(gjson.Parse(l.JSON))
		}
		return r.o.Unknown(firstKey(l), l.JSON)
	}
	// The bare layout: a response item on its own.
	return r.responseItem(l, gjson.Parse(l.JSON))
}

// firstKey names a line by its first key.
func firstKey(l *parsers.Line) string {
	k := ""
	gjson.Parse(l.JSON).ForEach(func(key, _ gjson.Result) bool {
		k = key.Str
		return false
	})
	return k
}

func (r *rollout) meta(p gjson.Result) error {
	r.usage = nil
	r.turn.Reset()
	r.open = r.open[:0]
	r.sid, r.cwd = strings.Clone(p.Get("id").String()), strings.Clone(p.Get("cwd").String())
	return r.start()
}

// start sends a session.start: at the meta line, and before a turn that
// follows a finished one (a run per turn, as `codex exec` resume does),
// so that each turn's outcome is its own.
func (r *rollout) start() error {
	r.turn.Run()
	ev := r.o.New(streaming.KindSessionStart)
	ev.SessionID, ev.CWD = r.sid, r.cwd
	return r.o.Push()
}

// newTurn begins a turn.
func (r *rollout) newTurn() error {
	if err := r.closeTurn(); err != nil {
		return err
	}
	if r.turn.Resulted {
		if err := r.start(); err != nil {
			return err
		}
	}
	r.turn.Begin()
	return nil
}

func (r *rollout) turnActive() {
	r.turn.Active, r.turn.Answered = true, false
}

// closeTurn ends a turn that had no terminal event (files before
// task_complete existed) when the next one begins: it finished if the
// assistant had the last word.
func (r *rollout) closeTurn() error {
	if ok, _ := r.turn.Due(len(r.open)); !ok {
		return nil
	}
	return r.result(true, "")
}

func (r *rollout) result(ok bool, reason string) error {
	r.turn.Active, r.turn.Answered, r.turn.Resulted, r.begun = false, false, true, false
	// Calls the turn left open (an abort) end with it.
	for _, id := range r.open {
		ev := r.o.New(streaming.KindToolEnd)
		ev.ID, ev.Status = id, streaming.ToolIncomplete
		if err := r.o.Push(); err != nil {
			return err
		}
	}
	r.open = r.open[:0]
	ev := r.o.New(streaming.KindResult)
	ev.OK, ev.Reason, ev.Turns = ok, reason, max(r.turn.N, 1)
	if r.usage != nil {
		u := *r.usage
		ev.Usage = &u
	}
	return r.o.Push()
}

func (r *rollout) eventMsg(l *parsers.Line, p gjson.Result) error {
	switch p.Get("type").String() {
	case "user_message":
		return r.prompt(l, request(p.Get("message").String()))
	case "task_started", "turn_started":
		if err := r.newTurn(); err != nil {
			return err
		}
		r.begun = true
		return nil
	case "task_complete", "turn_complete":
		if msg := p.Get("error.message").String(); msg != "" {
			e := r.o.New(streaming.KindError)
			e.Text, e.Fatal = errorText(msg), true
			if err := r.o.Push(); err != nil {
				return err
			}
			return r.result(false, errorText(msg))
		}
		return r.result(true, "")
	case "turn_aborted":
		reason := p.Get("reason").String()
		if reason == "" {
			reason = "aborted"
		}
		return r.result(false, reason)
	case "token_count":
		t := p.Get("info.total_token_usage")
		if !t.IsObject() {
			return nil
		}
		// Cumulative for the thread: passed on as it is, never added up.
		r.usage = usageOf(t)
		r.usage.ContextWindow = p.Get("info.model_context_window").Int()
		ev := r.o.New(streaming.KindUsage)
		u := *r.usage
		ev.Usage = &u
		return r.o.Push()
	case "error":
		ev := r.o.New(streaming.KindError)
		ev.Text, ev.Level = errorText(p.Get("message").String()), streaming.LevelWarning
		return r.o.Push()
	case "thread_rolled_back":
		return r.o.Status("rolled back "+p.Get("num_turns").String()+" turn(s)", streaming.LevelInfo)
	case "entered_review_mode", "exited_review_mode":
		return r.o.Status(strings.ReplaceAll(p.Get("type").String(), "_", " "), streaming.LevelInfo)
	}
	// agent_message, agent_reasoning: the words response_item holds;
	// *_end events: the calls it holds; context_compacted follows the
	// compacted line.
	return nil
}

// Finish ends the file: a last turn without a terminal event finished if
// the assistant had the last word; else it is left open (exit 3).
func (r *rollout) Finish(emit parsers.Emit) error {
	r.o.Emit = emit
	return r.closeTurn()
}
