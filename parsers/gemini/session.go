package gemini

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Gemini CLI records every session in ~/.gemini/tmp/<project>/chats/:
// up to v0.38 one pretty-printed JSON document per session
// ({sessionId, projectHash, startTime, messages:[…]}, rewritten whole;
// the input reader hands it over as one value), since v0.39 an
// append-only JSONL file (a header line, message records that are written
// again, whole, each time they change, {"$set":…} header updates and
// {"$rewindTo":id}). See docs/formats/gemini-session.md. Messages are
// whole: user, gemini (text, thoughts, tool calls with their results),
// info, warning, error. The reader sends each message's text as a
// snapshot under the message id (a record written again is a longer
// snapshot) and keeps only where the last turn stands.

// detectSession scores a line: a session document or header
// (sessionId with projectHash), or a JSONL update record, is decisive; a
// message record is only Maybe (it says little on its own).
func detectSession(l *parsers.Line) parsers.Confidence {
	if l.Has("sessionId") && l.Has("projectHash") {
		return parsers.Decisive
	}
	if l.Get("$set").IsObject() || l.Get("$rewindTo").Type == gjson.String {
		return parsers.Decisive
	}
	if isSessionMessage(l) {
		return parsers.Maybe
	}
	return parsers.No
}

// isSessionMessage reports a JSONL message record.
func isSessionMessage(l *parsers.Line) bool {
	if !l.Has("id") || !l.Has("timestamp") || !l.Has("content") {
		return false
	}
	return sessionTypes[l.Str("type")]
}

// sessionTypes are the types of a saved chat's message records.
var sessionTypes = map[string]bool{"user": true, "gemini": true, "info": true, "warning": true, "error": true}

// session is the state of one saved chat.
type session struct {
	out parsers.Out

	sid  string
	turn parsers.Turns
	open map[string]bool // tool calls started and not ended
	mode streaming.Mode  // Final for a document, Snapshot for JSONL records
}

func newSession() *session {
	return &session{open: map[string]bool{}, mode: streaming.Snapshot}
}

func (s *session) Parse(l *parsers.Line, emit parsers.Emit) error {
	s.out.Emit = emit
	switch {
	case l.Has("sessionId") && l.Has("projectHash"):
		// A header begins a run, also after another file's records (a log
		// that repeats, or files concatenated): the last run's finished
		// turn gets its result, what it left open the session ends.
		if err := s.closeTurn(); err != nil {
			return err
		}
		clear(s.open)
		s.turn.Reset()
		s.sid = strings.Clone(l.Str("sessionId"))
		if err := s.start(); err != nil {
			return err
		}
		msgs := l.Get("messages")
		if !msgs.IsArray() {
			return nil
		}
		// A whole document: each message is complete.
		s.mode = streaming.Final
		var err error
		msgs.ForEach(func(_, m gjson.Result) bool {
			err = s.message(m)
			return err == nil
		})
		s.mode = streaming.Snapshot
		return err
	case l.Get("$rewindTo").Type == gjson.String:
		return s.out.Status("rewound the conversation to an earlier message", streaming.LevelInfo)
	case l.Get("$set").IsObject():
		if msgs := l.Get("$set.messages"); msgs.IsArray() {
			if s.turn.N > 0 {
				return s.out.Status("conversation history replaced ("+strconv.Itoa(len(msgs.Array()))+" messages)", streaming.LevelInfo)
			}
			var err error
			msgs.ForEach(func(_, m gjson.Result) bool {
				err = s.message(m)
				return err == nil
			})
			return err
		}
		return nil
	}
	if sessionTypes[l.Str("type")] {
		return s.message(gjson.Parse(l.JSON))
	}
	// A line among saved chat records that no family of the agent claims.
	return s.out.Unknown(l.Str("type"), l.JSON)
}

func (s *session) start() error {
	s.turn.Run()
	ev := s.out.New(streaming.KindSessionStart)
	ev.SessionID = s.sid
	return s.out.Push()
}

// partsText is a content value as text: a string, or the text of its parts.
func partsText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var parts []string
	c.ForEach(func(_, p gjson.Result) bool {
		if t := p.Get("text"); t.Exists() {
			parts = append(parts, t.String())
		}
		return true
	})
	return strings.Join(parts, "\n")
}

// message handles one message record.
func (s *session) message(m gjson.Result) error {
	id := m.Get("id").String()
	text := partsText(m.Get("content"))
	switch m.Get("type").String() {
	case "user":
		if d := m.Get("displayContent"); d.Exists() {
			text = partsText(d)
		}
		t := strings.TrimSpace(text)
		if strings.HasPrefix(t, "<session_context>") || strings.HasPrefix(t, "<hook_context>") || t == "" {
			return nil
		}
		if err := s.newTurn(); err != nil {
			return err
		}
		if strings.HasPrefix(t, "/") || strings.HasPrefix(t, "?") {
			return s.out.Status(t, streaming.LevelInfo)
		}
		if err := s.words(id, streaming.RoleUser, streaming.KindTextDelta, 0, text); err != nil {
			return err
		}
		return s.out.Stop(parsers.Msg{ID: id, Role: streaming.RoleUser})
	case "gemini":
		return s.model(id, m, text)
	case "info":
		return s.out.Status(text, streaming.LevelInfo)
	case "warning":
		return s.out.Status(text, streaming.LevelWarning)
	case "error":
		s.turn.Active, s.turn.Answered, s.turn.Failed = true, false, text
		ev := s.out.New(streaming.KindError)
		ev.Text = text
		return s.out.Push()
	}
	return nil
}

// words sends a block of a message. The first opens the message in the
// session; a record written again is the block again, which the session
// compares with what it showed (also once the message has stopped).
func (s *session) words(id, role string, kind streaming.Kind, block int, text string) error {
	return s.out.Text(parsers.Msg{ID: id, Role: role}, kind, block, text, s.mode)
}

// model handles a gemini message: its thoughts, its text, its tool calls.
func (s *session) model(id string, m gjson.Result, text string) error {
	s.turn.Active = true
	if s.turn.N == 0 {
		s.turn.N = 1
	}
	var thoughts []string
	m.Get("thoughts").ForEach(func(_, t gjson.Result) bool {
		sub, desc := t.Get("subject").String(), t.Get("description").String()
		switch {
		case sub != "" && desc != "":
			thoughts = append(thoughts, "**"+sub+"** "+desc)
		default:
			thoughts = append(thoughts, sub+desc)
		}
		return true
	})
	if err := s.words(id, streaming.RoleAssistant, streaming.KindThinkingDelta, 0, strings.Join(thoughts, "\n\n")); err != nil {
		return err
	}
	if err := s.words(id, streaming.RoleAssistant, streaming.KindTextDelta, 0, text); err != nil {
		return err
	}
	s.turn.Failed = ""
	var err error
	pending := false
	m.Get("toolCalls").ForEach(func(_, c gjson.Result) bool {
		var done bool
		done, err = s.toolCall(c)
		pending = pending || !done
		return err == nil
	})
	if err != nil {
		return err
	}
	s.turn.Answered = strings.TrimSpace(text) != "" && !pending && len(m.Get("toolCalls").Array()) == 0
	return nil
}

// toolCall starts a call the first time it is seen and ends it once its
// status is final; done reports a call that has ended.
func (s *session) toolCall(c gjson.Result) (done bool, err error) {
	id := c.Get("id").String()
	status := c.Get("status").String()
	if !s.open[id] {
		s.open[strings.Clone(id)] = true
		ev := s.out.New(streaming.KindToolStart)
		ev.ID = id
		ev.Name = parsers.CleanToolName(c.Get("name").String())
		ev.Input = compact(c.Get("args"))
		if err := s.out.Push(); err != nil {
			return false, err
		}
	}
	var st streaming.ToolStatus
	switch status {
	case "success":
		st = streaming.ToolOK
	case "error":
		st = streaming.ToolError
	case "cancelled":
		st = streaming.ToolDeclined
		s.turn.Failed = "cancelled by the user" // a cancelled call ends the turn
	default:
		return false, nil // validating, scheduled, executing, awaiting_approval
	}
	delete(s.open, id)
	ev := s.out.New(streaming.KindToolEnd)
	ev.ID, ev.Status = id, st
	ev.Output = callOutput(c)
	ev.Display = shellDisplay(ev.Output)
	return true, s.out.Push()
}

// callOutput is a call's result: the function response's output or
// error, else its display text.
func callOutput(c gjson.Result) string {
	var parts []string
	c.Get("result").ForEach(func(_, r gjson.Result) bool {
		resp := r.Get("functionResponse.response")
		switch {
		case resp.Get("output").Exists():
			parts = append(parts, resp.Get("output").String())
		case resp.Get("error").Exists():
			parts = append(parts, resp.Get("error").String())
		case r.Get("text").Exists():
			parts = append(parts, r.Get("text").String())
		}
		return true
	})
	if len(parts) == 0 {
		if d := c.Get("resultDisplay"); d.Type == gjson.String {
			return d.Str
		}
	}
	return strings.Join(parts, "\n")
}

// compact is a value as one line of JSON: a document's values are
// pretty-printed.
func compact(v gjson.Result) string {
	if strings.IndexByte(v.Raw, '\n') < 0 {
		return parsers.JSONText(v)
	}
	return v.Get("@ugly").Raw
}

// newTurn begins a turn at a user prompt; the turn before it ends.
func (s *session) newTurn() error {
	if err := s.closeTurn(); err != nil {
		return err
	}
	if s.turn.Resulted {
		if err := s.start(); err != nil {
			return err
		}
	}
	s.turn.Begin()
	return nil
}

// closeTurn ends the current turn with a result when the model answered
// (text, every call ended) or an error message ended it; a turn still
// running is left open.
func (s *session) closeTurn() error {
	if ok, due := s.turn.Due(len(s.open)); due {
		return s.turn.Result(&s.out, ok)
	}
	return nil
}

// Finish ends the file: the last turn's outcome, if it has one.
func (s *session) Finish(emit parsers.Emit) error {
	s.out.Emit = emit
	return s.closeTurn()
}
