package codebuddy

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// parser is the state of one CodeBuddy array's items: the run it reads
// and the assistant message open. It keeps no text: the session does.
type parser struct {
	out parsers.Out // scratch event and the line's Emit; out.Time is the item's timestamp
	ids parsers.IDs // ids for what has none

	started  bool            // session.start was sent for the current run
	resulted bool            // the current run's result came: what follows is another run
	session  string          // the run's sessionId
	open     string          // the assistant message open (providerData.messageId)
	used     streaming.Usage // the run's tokens so far, from its messages
}

func newParser() *parser { return &parser{} }

// Parse handles one element of the json array, or a log line.
func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit, p.out.Time = emit, parsers.TimeOf(l.Get("timestamp"))
	typ := l.Str("type")
	switch typ {
	case "result":
		return p.result(l)
	case "log":
		return p.log(l.Get("log"))
	case "file-history-snapshot", "ai-title", "summary", "turn-metrics":
		// Bookkeeping of the session file: undo snapshots, the title,
		// metrics (docs/formats/codebuddy.md).
		return nil
	}
	if err := p.begin(l.Str("sessionId")); err != nil {
		return err
	}
	switch typ {
	case "message":
		switch l.Str("role") {
		case "user":
			return p.userMessage(l)
		case "system", "developer":
			return nil // instructions given to the model, not the conversation
		}
		return p.assistantMessage(l)
	case "reasoning":
		return p.reasoning(l)
	case "function_call":
		return p.functionCall(l)
	case "function_call_result":
		return p.functionResult(l)
	}
	return p.out.Unknown(typ, l.JSON)
}

// Finish closes the open message; a run without its result stays
// incomplete.
func (p *parser) Finish(emit parsers.Emit) error {
	p.out.Emit = emit
	return p.closeOpen()
}

// begin starts a run at its first item, after the last run's result, or
// when the sessionId changes (arrays of several runs concatenated).
func (p *parser) begin(session string) error {
	if p.started && !p.resulted && (session == "" || session == p.session) {
		return nil
	}
	if err := p.closeOpen(); err != nil {
		return err
	}
	p.started, p.resulted = true, false
	p.session = strings.Clone(session)
	p.used = streaming.Usage{}
	e := p.out.New(streaming.KindSessionStart)
	e.SessionID = session
	return p.out.Push()
}

// result is the Claude-style last element: the run's outcome, duration,
// turns and tokens. Its usage has nulls where Claude has numbers (read
// as 0), and a total_cost_usd of 0 means no cost was reported.
func (p *parser) result(l *parsers.Line) error {
	if err := p.begin(l.Str("session_id")); err != nil {
		return err
	}
	if err := p.closeOpen(); err != nil {
		return err
	}
	p.resulted = true
	p.out.Time = parsers.TimeOf(l.Get("__timestamp"))
	sub := l.Str("subtype")
	ok := !l.Get("is_error").Bool() && (sub == "success" || sub == "")
	reason := ""
	if !ok {
		reason = failure(l, sub)
		f := p.out.New(streaming.KindError)
		f.Text, f.Fatal = reason, true
		if err := p.out.Push(); err != nil {
			return err
		}
	}
	e := p.out.New(streaming.KindResult)
	e.OK, e.Reason = ok, reason
	e.DurationMS, e.Turns = l.Get("duration_ms").Int(), int(l.Get("num_turns").Int())
	if ok {
		e.Text = l.Str("result")
	}
	if u := l.Get("usage"); u.IsObject() {
		e.Usage = &streaming.Usage{
			InputTokens:      u.Get("input_tokens").Int(),
			OutputTokens:     u.Get("output_tokens").Int(),
			CacheReadTokens:  u.Get("cache_read_input_tokens").Int(),
			CacheWriteTokens: u.Get("cache_creation_input_tokens").Int(),
		}
		if c := l.Get("total_cost_usd"); c.Type == gjson.Number && c.Num > 0 {
			e.Usage.CostUSD, e.Usage.HasCost = c.Num, true
		}
	}
	return p.out.Push()
}

// failure says why a result failed: its error or errors, else the result
// text of an error result, else its subtype.
func failure(l *parsers.Line, sub string) string {
	if v := l.Get("error"); v.Exists() {
		if m := v.Get("message").String(); m != "" {
			return m
		}
		if v.Type == gjson.String && v.Str != "" {
			return v.Str
		}
	}
	var errs []string
	l.Get("errors").ForEach(func(_, v gjson.Result) bool {
		if s := v.String(); s != "" {
			errs = append(errs, s)
		}
		return true
	})
	if len(errs) > 0 {
		return strings.Join(errs, "; ")
	}
	if r := strings.TrimSpace(l.Str("result")); r != "" {
		return r
	}
	if sub != "" && sub != "success" {
		return sub
	}
	return "error"
}

// log is CodeBuddy's own stream-json line {level, message}: a status
// line, a warning from "warn" up.
func (p *parser) log(v gjson.Result) error {
	msg := v.Get("message").String()
	if msg == "" {
		return nil
	}
	level := streaming.LevelInfo
	switch strings.ToLower(v.Get("level").String()) {
	case "warn", "warning", "error", "fatal":
		level = streaming.LevelWarning
	}
	return p.out.Status(msg, level)
}
