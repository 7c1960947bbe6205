package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// The Codex app-server speaks JSON-RPC 2.0 (without the "jsonrpc" member)
// over NDJSON: notifications {"method","params"}, server requests
// {"id","method","params"} (approvals), client requests and responses.
// IDE and SDK logs record them, sometimes wrapped ({"dir","msg":{…}}).
// See docs/formats/codex-app-server.md. Item events say what they send:
// deltas under the item id, the completed item as a final.

// detectAppServer scores a line: a method of the v2 protocol's families is
// decisive; a bare response or a wrapped message is only Maybe.
func detectAppServer(l *parsers.Line) parsers.Confidence {
	m := l.Get("method")
	if m.Type != gjson.String {
		if env := appEnvelope(l); env.Exists() && env.Get("method").Type == gjson.String {
			return parsers.Maybe
		}
		if r := l.Get("result"); r.IsObject() && l.Has("id") && isAppResponse(r) {
			return parsers.Decisive
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

// isAppResponse reports the app-server's own answers, which a log of a
// client's traffic begins with: initialize's ({userAgent, codexHome,
// platformOs}) and thread/start's ({thread{…, cliVersion, modelProvider},
// model, approvalPolicy, sandbox}).
func isAppResponse(r gjson.Result) bool {
	if r.Get("codexHome").Exists() {
		return true
	}
	th := r.Get("thread")
	return th.IsObject() && th.Get("cliVersion").Exists() && th.Get("modelProvider").Exists()
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
	sp      spelling         // appSpelling, naming threads by their agent paths
	started bool             // a session.start was sent
	turns   int              // turns begun in the run
	usage   *streaming.Usage // the run's token usage: the sum of its threads' last totals
	// totals holds each thread's last (cumulative) token usage.
	totals map[string]streaming.Usage
	// streamed holds the items whose text or output came as deltas, so
	// the completed item is sent as a final (the session keeps the text).
	streamed map[string]bool
	// asks maps a pending server request's id to its item, until answered.
	asks map[string]string
	// sid, cwd and model are the thread's, for the start of later turns.
	sid, cwd, model string
	resulted        bool   // a result closed a turn of the current run
	lastErr         string // the last fatal error notification of the turn

	// Threads (appagents.go): the root thread's turns are the runs; other
	// threads are sub-agents, nested under the calls that spawned them.
	root     string            // the root thread's id ("" not known yet)
	children map[string]*child // the other threads, by id
	calls    []*agentCall      // open calls that child work nests under, in start order
	parent   string            // Parent of the events of the message being read
	emit     parsers.Emit      // the line's Emit, which nested hands events to
	line     int               // the input line being read
	// respThread and respModel are what a thread/start response says:
	// the model is not in thread/started.
	respThread, respModel string
}

func newAppServer() *appServer {
	a := &appServer{streamed: map[string]bool{}, asks: map[string]string{},
		totals: map[string]streaming.Usage{}, children: map[string]*child{}}
	a.sp = appSpelling
	a.sp.agents = func(ids gjson.Result, it item) string { return a.agentNames(ids, it.Get("receiverPaths")) }
	return a
}

func (a *appServer) Parse(l *parsers.Line, emit parsers.Emit) error {
	a.emit = emit
	if a.o.Emit == nil {
		a.o.Emit = parsers.EmitFunc(a.nested) // made once
	}
	a.parent, a.line = "", l.N
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
	if method == "thread/started" {
		return a.threadStarted(p.Get("thread"))
	}
	// Which thread: a child thread is first heard of by a turn/started
	// (its items come after), so until one is known only turn
	// notifications are asked (threadId follows a whole item in params).
	var thread string
	if len(a.children) > 0 || strings.HasPrefix(method, "turn/") {
		thread = p.Get("threadId").String()
	}
	if !a.isRoot(thread) {
		switch method {
		case "turn/started":
			return a.childTurnStarted(thread)
		case "turn/completed":
			return a.childTurnCompleted(thread, p.Get("turn"))
		case "thread/tokenUsage/updated":
			return a.tokenUsage(thread, p.Get("tokenUsage"))
		}
		if err := a.nestUnder(thread); err != nil {
			return err
		}
	}
	if l.Has("id") && isAsk(method) {
		return a.request(l, method, p)
	}
	switch method {
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
		return a.tokenUsage(thread, p.Get("tokenUsage"))
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
	id := t.Get("id").String()
	if a.isChildThread(id, t) {
		c := a.childOf(id)
		if c.path == "" {
			c.path = strings.Clone(t.Get("agentNickname").String())
		}
		for _, call := range a.calls {
			if c.call == nil && call.thread == "" && !call.synthetic {
				a.tie(call, id, "")
			}
		}
		return nil
	}
	// The root thread: a run begins. What the last one left open the
	// session closes.
	a.started = true
	a.turns = 0
	a.usage = nil
	clear(a.totals)
	a.root = strings.Clone(id)
	a.children, a.calls = map[string]*child{}, nil
	a.sid = a.root
	a.cwd = strings.Clone(t.Get("cwd").String())
	a.model = strings.Clone(t.Get("model").String())
	if a.model == "" && id == a.respThread {
		a.model = a.respModel // the thread/start response names it
	}
	return a.start()
}

func (a *appServer) start() error {
	a.resulted = false
	ev := a.o.New(streaming.KindSessionStart)
	ev.SessionID, ev.CWD, ev.Model = a.sid, a.cwd, a.model
	return a.o.Push()
}

func (a *appServer) turnCompleted(t gjson.Result) error {
	if err := a.settle(); err != nil {
		return err
	}
	a.resulted = true
	ev := a.o.New(streaming.KindResult)
	ev.Turns = max(a.turns, 1)
	ev.DurationMS = t.Get("durationMs").Int()
	if a.usage != nil {
		u := *a.usage
		ev.Usage = &u
	}
	ev.Reason = turnFailure(t)
	ev.OK = ev.Reason == ""
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
	if a.parent != "" {
		// A sub-agent's error: its turn fails, not the run.
		if c := a.children[p.Get("threadId").String()]; c != nil {
			c.lastErr = strings.Clone(errorText(msg))
		}
		ev := a.o.New(streaming.KindError)
		ev.Text = errorText(msg)
		return a.o.Push()
	}
	// A fatal error: turn/completed(failed) says it again, and is then
	// not shown a second time.
	a.lastErr = strings.Clone(msg)
	ev := a.o.New(streaming.KindError)
	ev.Text, ev.Fatal = errorText(msg), true
	return a.o.Push()
}

// tokenUsage notes a thread's usage. Its total is cumulative for the
// thread: it replaces the thread's last one, never added to it. The run's
// usage is the sum over its threads (a sub-agent's tokens are the run's).
func (a *appServer) tokenUsage(thread string, u gjson.Result) error {
	t := u.Get("total")
	if !t.IsObject() {
		return nil
	}
	if a.isRoot(thread) {
		thread = "" // the root's, whether or not the line names it
	}
	if _, ok := a.totals[thread]; !ok {
		thread = strings.Clone(thread)
	}
	a.totals[thread] = streaming.Usage{
		InputTokens:      t.Get("inputTokens").Int(),
		OutputTokens:     t.Get("outputTokens").Int(),
		CacheReadTokens:  t.Get("cachedInputTokens").Int(),
		CacheWriteTokens: t.Get("cacheWriteInputTokens").Int(),
	}
	// The context window is the root thread's model's.
	sum := streaming.Usage{}
	if a.usage != nil {
		sum.ContextWindow = a.usage.ContextWindow
	}
	if thread == "" {
		sum.ContextWindow = u.Get("modelContextWindow").Int()
	}
	for _, v := range a.totals {
		parsers.AddUsage(&sum, v)
	}
	a.usage = &sum
	ev := a.o.New(streaming.KindUsage)
	u2 := sum
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
