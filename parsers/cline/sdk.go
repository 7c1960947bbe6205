package cline

import (
	"strconv"
	"time"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// sdkState is the state of a Cline SDK CLI stream (apps/cli, `--json`):
// {"ts":"<ISO-8601>","type":"run_start"|"agent_event"|"run_result"|…}.
// Its text arrives as chunks (content_start.text) with the text so far
// (accumulated), and content_end repeats the whole block.
type sdkState struct {
	run        int
	iter       int
	msg        string // the current assistant message: one per iteration
	open       bool
	textBlock  int
	thinkBlock int
	textOpen   bool
	thinkOpen  bool
	tools      int

	done       bool // agent_event done seen
	doneReason string
	doneText   string
	resulted   bool
}

// other handles lines that are not say/ask messages: Cline CLI 2.x's
// task_started and error lines, the Ink view's completion line, and the
// SDK CLI's lines.
func (p *parser) other(l *parsers.Line) error {
	typ := l.Str("type")
	p.out.Time = time.Time{}
	if l.Get("ts").Type == gjson.String || sdkTypes[typ] {
		return p.sdkLine(l, typ)
	}
	switch typ {
	case "task_started":
		id := l.Str("taskId")
		if !p.started {
			return p.startRun("", id)
		}
		if p.run.active {
			if err := p.flushPending(); err != nil {
				return err
			}
			p.sawPrompt, p.sawAgent = false, false
			p.forgetIdentities()
			return p.startRun("", id)
		}
		return nil
	case "error":
		text := l.Str("message")
		if text == "" {
			text = l.Get("error").String()
		}
		p.out.Ev = streaming.Event{Kind: streaming.KindError, Text: text}
		return p.out.Push()
	case "completion":
		if p.pending != nil {
			return p.flushPending()
		}
		if p.run.ended {
			return nil
		}
		ok := l.Str("status") == "success"
		reason := ""
		if !ok {
			reason = "completion status " + strconv.Quote(l.Str("status"))
		}
		return p.result(ok, "", reason)
	}
	p.out.Ev = streaming.Event{Kind: streaming.KindUnknown, Type: typ, Text: l.JSON}
	return p.out.Push()
}

// sdkLine handles one line of the SDK CLI.
func (p *parser) sdkLine(l *parsers.Line, typ string) error {
	if t := parsers.TimeOf(l.Get("ts")); !t.IsZero() {
		p.out.Time = t
	}
	s := &p.sdk
	if !p.started || typ == "run_start" {
		*s = sdkState{run: s.run + 1}
		if err := p.startRun(l.Str("modelId"), l.Str("sessionId")); err != nil {
			return err
		}
		if typ == "run_start" {
			return nil
		}
	}
	switch typ {
	case "agent_event":
		return p.sdkEvent(l, l.Get("event"))
	case "run_result":
		return p.sdkResult(l)
	case "run_aborted":
		text := joinText("run aborted", l.Str("message"))
		if s.resulted {
			return p.out.Status(text, streaming.LevelWarning)
		}
		s.resulted = true
		p.out.Ev = streaming.Event{Kind: streaming.KindResult, Reason: joinText("aborted", l.Str("message"))}
		return p.out.Push()
	case "run_abort_requested":
		return p.out.Status(joinText("abort requested", l.Str("reason")), streaming.LevelWarning)
	case "team_restored":
		return p.out.Status(joinText("team restored", l.Str("teamName")), streaming.LevelInfo)
	case "team_event":
		ev := l.Get("event")
		kind := ev.Get("type").String()
		if kind == "run_progress" && ev.Get("message").String() == "heartbeat" {
			return nil
		}
		text := "team: " + kind
		if a := ev.Get("agentId").String(); a != "" {
			text += " " + a
		}
		return p.out.Status(text, streaming.LevelInfo)
	case "hook_event":
		return nil // hook bookkeeping: nothing to show
	case "error":
		p.out.Ev = streaming.Event{Kind: streaming.KindError, Text: l.Str("message")}
		return p.out.Push()
	}
	p.out.Ev = streaming.Event{Kind: streaming.KindUnknown, Type: typ, Text: l.JSON}
	return p.out.Push()
}

// sdkMessage opens the iteration's assistant message.
func (p *parser) sdkMessage() error {
	s := &p.sdk
	if s.open {
		return nil
	}
	if s.msg == "" {
		s.msg = "run" + strconv.Itoa(s.run) + ".iter" + strconv.Itoa(s.iter)
	}
	s.open = true
	return p.out.Start(parsers.Msg{ID: s.msg, Role: streaming.RoleAssistant})
}

// sdkClose closes the iteration's message.
func (p *parser) sdkClose() error {
	s := &p.sdk
	s.textOpen, s.thinkOpen = false, false
	if !s.open {
		s.msg = ""
		return nil
	}
	s.open = false
	m := parsers.Msg{ID: s.msg, Role: streaming.RoleAssistant}
	s.msg = ""
	return p.out.Stop(m)
}

// sdkEvent handles an agent_event's event.
func (p *parser) sdkEvent(l *parsers.Line, ev gjson.Result) error {
	s := &p.sdk
	kind := ev.Get("type").String()
	switch kind {
	case "iteration_start":
		if err := p.sdkClose(); err != nil {
			return err
		}
		s.iter = int(ev.Get("iteration").Int())
		s.textBlock, s.thinkBlock = 0, 0
		return nil
	case "iteration_end":
		return p.sdkClose()
	case "content_start":
		return p.sdkContent(ev, false)
	case "content_end":
		return p.sdkContent(ev, true)
	case "content_update":
		id := ev.Get("toolCallId").String()
		if u := ev.Get("update"); u.Type == gjson.String && id != "" {
			p.out.Ev = streaming.Event{Kind: streaming.KindToolOutputDelta, ID: id, Text: u.Str}
			return p.out.Push()
		}
		return nil
	case "usage":
		u := streaming.Usage{
			InputTokens:      ev.Get("inputTokens").Int(),
			OutputTokens:     ev.Get("outputTokens").Int(),
			CacheReadTokens:  ev.Get("cacheReadTokens").Int(),
			CacheWriteTokens: ev.Get("cacheWriteTokens").Int(),
			CostUSD:          ev.Get("cost").Float(),
			HasCost:          ev.Get("cost").Type == gjson.Number,
		}
		p.out.Ev = streaming.Event{Kind: streaming.KindUsage, Usage: &u}
		return p.out.Push()
	case "notice":
		text := ev.Get("message").String()
		if text == "" {
			text = ev.Get("reason").String()
		}
		if text == "" {
			return nil
		}
		return p.out.Status(parsers.Clip(parsers.FirstLine(text), 300), streaming.LevelInfo)
	case "done":
		s.done = true
		s.doneReason = ev.Get("reason").String()
		s.doneText = ev.Get("text").String()
		return nil
	case "error":
		text := ev.Get("error.message").String()
		if text == "" {
			text = ev.Get("error").String()
		}
		rec := ev.Get("recoverable").Bool()
		p.out.Ev = streaming.Event{Kind: streaming.KindError, Text: text, Fatal: !rec}
		if rec {
			p.out.Ev.Level = streaming.LevelWarning
		}
		return p.out.Push()
	}
	p.out.Ev = streaming.Event{Kind: streaming.KindUnknown, Type: "agent_event:" + kind, Text: l.JSON}
	return p.out.Push()
}

// sdkContent handles content_start (a chunk) and content_end (the whole
// block) of text, reasoning and tool calls.
func (p *parser) sdkContent(ev gjson.Result, end bool) error {
	s := &p.sdk
	switch ev.Get("contentType").String() {
	case "text", "reasoning":
		think := ev.Get("contentType").String() == "reasoning"
		field, kind, block, open := "text", streaming.KindTextDelta, &s.textBlock, &s.textOpen
		if think {
			field, kind, block, open = "reasoning", streaming.KindThinkingDelta, &s.thinkBlock, &s.thinkOpen
		}
		v := ev.Get(field)
		mode := streaming.Delta
		if end {
			mode = streaming.Final
		} else if acc := ev.Get("accumulated"); acc.Type == gjson.String && !think {
			v, mode = acc, streaming.Snapshot
		}
		if v.Type == gjson.String && v.Str != "" {
			if err := p.sdkMessage(); err != nil {
				return err
			}
			*open = true
			p.out.Ev = streaming.Event{Kind: kind, Message: s.msg, Block: *block, Text: v.Str, Role: streaming.RoleAssistant}
			if err := p.out.Send(mode); err != nil {
				return err
			}
		}
		if end && *open {
			*open = false
			*block++
		}
		return nil
	case "tool":
		id := ev.Get("toolCallId").String()
		if id == "" {
			if !end {
				s.tools++
			}
			id = "run" + strconv.Itoa(s.run) + ".tool" + strconv.Itoa(s.tools)
		}
		if !end {
			p.out.Ev = streaming.Event{Kind: streaming.KindToolStart, ID: id,
				Name: parsers.CleanToolName(ev.Get("toolName").String()), Input: parsers.JSONText(ev.Get("input"))}
			return p.out.Push()
		}
		p.out.Ev = streaming.Event{Kind: streaming.KindToolEnd, ID: id, Status: streaming.ToolOK,
			DurationMS: ev.Get("durationMs").Int()}
		if out := ev.Get("output"); out.Type == gjson.String {
			p.out.Ev.Output = out.Str
		} else if out.Exists() && out.Type != gjson.Null {
			p.out.Ev.Output = out.Raw
		}
		if e := ev.Get("error"); e.Exists() && e.Type != gjson.Null && e.String() != "" {
			p.out.Ev.Status = streaming.ToolError
			msg := e.Get("message").String()
			if msg == "" {
				msg = e.String()
			}
			if p.out.Ev.Output == "" {
				p.out.Ev.Output = msg
			}
		}
		return p.out.Push()
	}
	return nil
}

// sdkResult is run_result: the run's outcome, answer, usage and duration.
func (p *parser) sdkResult(l *parsers.Line) error {
	s := &p.sdk
	if err := p.sdkClose(); err != nil {
		return err
	}
	s.resulted = true
	reason := l.Str("finishReason")
	ok := reason == "completed"
	p.out.Ev = streaming.Event{Kind: streaming.KindResult, OK: ok,
		DurationMS: l.Get("durationMs").Int(), Turns: int(l.Get("iterations").Int())}
	text := l.Str("text")
	if ok {
		p.out.Ev.Text = text
	} else {
		p.out.Ev.Reason = reason
		if text != "" {
			p.out.Ev.Reason += ": " + parsers.Clip(parsers.FirstLine(text), 200)
		}
	}
	u := l.Get("aggregateUsage")
	if !u.Exists() {
		u = l.Get("usage")
	}
	if u.IsObject() {
		cost := u.Get("totalCost")
		if !cost.Exists() {
			cost = u.Get("cost")
		}
		p.out.Ev.Usage = &streaming.Usage{
			InputTokens:      u.Get("inputTokens").Int(),
			OutputTokens:     u.Get("outputTokens").Int(),
			CacheReadTokens:  u.Get("cacheReadTokens").Int(),
			CacheWriteTokens: u.Get("cacheWriteTokens").Int(),
			CostUSD:          cost.Float(),
			HasCost:          cost.Type == gjson.Number,
		}
	}
	return p.out.Push()
}

// sdkFinish gives the result of an SDK run whose run_result line never
// came but whose agent said it was done.
func (p *parser) sdkFinish() error {
	s := &p.sdk
	if !s.done || s.resulted {
		return nil
	}
	s.resulted = true
	ok := s.doneReason == "completed"
	p.out.Ev = streaming.Event{Kind: streaming.KindResult, OK: ok}
	if ok {
		p.out.Ev.Text = s.doneText
	} else {
		p.out.Ev.Reason = s.doneReason
	}
	return p.out.Push()
}
