package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// The Codex app-server speaks JSON-RPC 2.0 (without the "jsonrpc" member)
// over NDJSON: notifications {"method","params"}, server requests
// {"id","method","params"} (approvals), client requests and responses.
// IDE and SDK logs record them, sometimes wrapped ({"dir","msg":{…}}).
// See shared/formats/codex-app-server.md. Item events say what they send:
// deltas under the item id, the completed item as a final.

// detectAppServer scores a line: a method of the v2 protocol's families is
// decisive; a bare response or a wrapped message is only Maybe.
func detectAppServer(l *parsers.Line) parsers.Confidence {
	m := l.Get("method")
	if m.Type != gjson.String {
		if env := appEnvelope(l); env.Exists() && env.Get("method").Type == gjson.String {
			return parsers.Maybe
		}
		return parsers.No
	}
	if l.Has("type") || l.Has("sessionId") {
		return parsers.No // ACP's session/update and others carry their own keys
	}
	name := m.Str
	for _, p := range [...]string{"thread/", "turn/", "item/", "account/", "mcpServer/", "codex/event/", "rawResponseItem/", "serverRequest/", "model/", "remoteControl/"} {
		if strings.HasPrefix(name, p) {
			return parsers.Decisive
		}
	}
	switch name {
	case "error", "warning", "configWarning", "deprecationNotice", "execCommandApproval", "applyPatchApproval":
		return parsers.Maybe
	}
	return parsers.No
}

// appEnvelope returns the message a log wrapper holds
// ({"dir":"<-","msg":{…}}, {"direction":…,"message":{…}}): the first
// nested object with a method, or an id and a result.
func appEnvelope(l *parsers.Line) gjson.Result {
	if l.Has("method") || l.Has("type") {
		return gjson.Result{}
	}
	for _, k := range [...]string{"msg", "message", "payload"} {
		v := l.Get(k)
		if v.IsObject() && (v.Get("method").Exists() || (v.Get("id").Exists() && v.Get("result").Exists())) {
			return v
		}
	}
	return gjson.Result{}
}

// appServer is the state of one app-server stream.
type appServer struct {
	o       parsers.Out
	started bool             // a session.start was sent
	turns   int              // turns begun in the run
	usage   *streaming.Usage // the thread's last (cumulative) token usage
	// streamed holds the items whose text or output came as deltas, so
	// the completed item is sent as a final (the session keeps the text).
	streamed map[string]bool
	// asks maps a pending server request's id to its item, until answered.
	asks map[string]string
	// sid, cwd and model are the thread's, for the start of later turns.
	sid, cwd, model string
	resulted        bool   // a result closed a turn of the current run
	lastErr         string // the last fatal error notification of the turn
}

func newAppServer() *appServer {
	return &appServer{streamed: map[string]bool{}, asks: map[string]string{}}
}

func (a *appServer) Parse(l *parsers.Line, emit parsers.Emit) error {
	a.o.Emit = emit
	if env := appEnvelope(l); env.Exists() {
		inner := parsers.NewLine(env.Raw, l.N)
		return a.message(inner)
	}
	return a.message(l)
}

func (a *appServer) Finish(parsers.Emit) error { return nil }

// message handles one JSON-RPC message.
func (a *appServer) message(l *parsers.Line) error {
	method := l.Str("method")
	p := l.Get("params")
	if method == "" {
		if l.Has("id") && l.Has("result") {
			return a.response(l)
		}
		if e := l.Get("error"); e.IsObject() {
			ev := a.o.New(streaming.KindError)
			ev.Text = "JSON-RPC error: " + e.Get("message").String()
			return a.o.Push()
		}
		return a.o.Unknown(l.Str("type"), l.JSON)
	}
	if l.Has("id") && isAsk(method) {
		return a.request(l, method, p)
	}
	switch method {
	case "thread/started":
		return a.threadStarted(p.Get("thread"))
	case "turn/started":
		clear(a.streamed)
		a.lastErr = ""
		if a.resulted {
			// A turn after a finished one: a run of its own, so that
			// each turn's outcome is its own (as `codex exec resume`).
			a.turns = 0
			if err := a.start(); err != nil {
				return err
			}
		}
		a.turns++
		return nil
	case "turn/completed":
		return a.turnCompleted(p.Get("turn"))
	case "item/started", "item/completed":
		return a.item(p.Get("item"), method == "item/completed")
	case "item/agentMessage/delta", "item/plan/delta":
		id := p.Get("itemId").String()
		a.streamed[id] = true
		return a.o.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindTextDelta, 0, p.Get("delta").String(), streaming.Delta)
	case "item/reasoning/summaryTextDelta":
		id := p.Get("itemId").String()
		a.streamed[id] = true
		return a.o.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindThinkingDelta, int(p.Get("summaryIndex").Int()), p.Get("delta").String(), streaming.Delta)
	case "item/reasoning/textDelta":
		id := p.Get("itemId").String()
		a.streamed[id] = true
		return a.o.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindThinkingDelta, 1000+int(p.Get("contentIndex").Int()), p.Get("delta").String(), streaming.Delta)
	case "item/commandExecution/outputDelta", "item/fileChange/outputDelta":
		id := p.Get("itemId").String()
		a.streamed[id] = true
		ev := a.o.New(streaming.KindToolOutputDelta)
		ev.ID, ev.Text = id, cleanOutput(p.Get("delta").String())
		if ev.Text == "" {
			return nil
		}
		return a.o.Push()
	case "item/mcpToolCall/progress":
		return a.o.Status(p.Get("message").String(), streaming.LevelInfo)
	case "turn/plan/updated":
		return a.plan(p)
	case "thread/tokenUsage/updated":
		return a.tokenUsage(p.Get("tokenUsage"))
	case "error":
		return a.errorNote(p)
	case "warning", "configWarning", "guardianWarning", "windows/worldWritableWarning":
		msg := p.Get("message").String()
		if msg == "" {
			msg = p.Get("summary").String()
		}
		return a.o.Status(msg, streaming.LevelWarning)
	case "deprecationNotice":
		return a.o.Status(p.Get("summary").String(), streaming.LevelWarning)
	case "model/rerouted":
		ev := a.o.New(streaming.KindModeChange)
		ev.From, ev.To = p.Get("fromModel").String(), p.Get("toModel").String()
		return a.o.Push()
	case "mcpServer/startupStatus/updated":
		if s := p.Get("status").String(); s == "failed" {
			return a.o.Status("MCP server "+p.Get("name").String()+" failed to start: "+p.Get("error").String(), streaming.LevelWarning)
		}
		return nil
	case "thread/compacted":
		return a.o.Status("context compacted", streaming.LevelInfo)
	case "serverRequest/resolved", "thread/status/changed", "turn/diff/updated", "account/rateLimits/updated",
		"remoteControl/status/changed", "item/reasoning/summaryPartAdded", "rawResponseItem/completed",
		"account/updated", "account/login/completed", "initialize", "initialized", "thread/start", "turn/start",
		"item/fileChange/patchUpdated", "item/commandExecution/terminalInteraction", "skills/changed",
		"thread/name/updated", "thread/closed", "thread/archived", "thread/unarchived", "hook/started", "hook/completed":
		// Bookkeeping, client requests, and what an item's completion
		// says again (the turn diff repeats the file changes).
		return nil
	}
	if strings.HasPrefix(method, "codex/event/") {
		return nil // the legacy mirror of v2 notifications: the same words again
	}
	return a.o.Unknown(method, l.JSON)
}

func (a *appServer) threadStarted(t gjson.Result) error {
	if t.Get("parentThreadId").String() != "" && a.started {
		return nil // a sub-agent's thread: its items arrive under their own ids
	}
	a.started = true
	a.turns = 0
	a.usage = nil
	a.sid = strings.Clone(t.Get("id").String())
	a.cwd = strings.Clone(t.Get("cwd").String())
	a.model = strings.Clone(t.Get("model").String())
	return a.start()
}

func (a *appServer) start() error {
	a.resulted = false
	ev := a.o.New(streaming.KindSessionStart)
	ev.SessionID, ev.CWD, ev.Model = a.sid, a.cwd, a.model
	return a.o.Push()
}

func (a *appServer) turnCompleted(t gjson.Result) error {
	a.resulted = true
	ev := a.o.New(streaming.KindResult)
	ev.Turns = max(a.turns, 1)
	ev.DurationMS = t.Get("durationMs").Int()
	if a.usage != nil {
		u := *a.usage
		ev.Usage = &u
	}
	switch st := t.Get("status").String(); st {
	case "completed", "":
		ev.OK = true
	case "interrupted":
		ev.Reason = "interrupted"
	default:
		msg := t.Get("error.message").String()
		if msg == "" {
			msg = "turn " + st
		}
		if d := t.Get("error.additionalDetails").String(); d != "" && d != msg {
			msg += ": " + d
		}
		ev.Reason = errorText(msg)
	}
	res := a.o.Ev
	said := a.lastErr != "" && errorText(a.lastErr) == res.Reason
	a.lastErr = ""
	if !res.OK && res.Reason != "interrupted" && !said {
		e := a.o.New(streaming.KindError)
		e.Text, e.Fatal = res.Reason, true
		if err := a.o.Push(); err != nil {
			return err
		}
	}
	a.o.Ev = res
	return a.o.Push()
}

func (a *appServer) errorNote(p gjson.Result) error {
	msg := p.Get("error.message").String()
	if msg == "" {
		msg = p.Get("message").String()
	}
	if p.Get("willRetry").Bool() {
		return a.o.Status(msg, streaming.LevelWarning)
	}
	// A fatal error: turn/completed(failed) says it again, and is then
	// not shown a second time.
	a.lastErr = strings.Clone(msg)
	ev := a.o.New(streaming.KindError)
	ev.Text, ev.Fatal = errorText(msg), true
	return a.o.Push()
}

func (a *appServer) tokenUsage(u gjson.Result) error {
	t := u.Get("total")
	if !t.IsObject() {
		return nil
	}
	// total is cumulative for the thread: passed on as it is, never added up.
	a.usage = &streaming.Usage{
		InputTokens:      t.Get("inputTokens").Int(),
		OutputTokens:     t.Get("outputTokens").Int(),
		CacheReadTokens:  t.Get("cachedInputTokens").Int(),
		CacheWriteTokens: t.Get("cacheWriteInputTokens").Int(),
	}
	ev := a.o.New(streaming.KindUsage)
	u2 := *a.usage
	ev.Usage = &u2
	return a.o.Push()
}

func (a *appServer) plan(p gjson.Result) error {
	if err := a.o.Status(p.Get("explanation").String(), streaming.LevelInfo); err != nil {
		return err
	}
	ev := a.o.New(streaming.KindPlan)
	p.Get("plan").ForEach(func(_, s gjson.Result) bool {
		ev.Entries = append(ev.Entries, streaming.PlanEntry{Text: s.Get("step").String(), Status: parsers.PlanStatus(s.Get("status").String())})
		return true
	})
	return a.o.Push()
}
