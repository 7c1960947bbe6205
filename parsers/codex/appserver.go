package codex

import (
	"strconv"
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

// item handles item/started and item/completed.
func (a *appServer) item(it gjson.Result, completed bool) error {
	id := it.Get("id").String()
	switch typ := it.Get("type").String(); typ {
	case "userMessage":
		if !completed {
			return nil
		}
		return a.o.Message(parsers.Msg{ID: id, Role: streaming.RoleUser}, streaming.KindTextDelta, userText(it.Get("content")))
	case "agentMessage", "plan":
		if !completed {
			return a.o.Start(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
		}
		if err := a.o.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindTextDelta, 0, it.Get("text").String(), streaming.Final); err != nil {
			return err
		}
		return a.o.Stop(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
	case "reasoning":
		if !completed {
			return a.o.Start(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
		}
		var err error
		it.Get("summary").ForEach(func(k, s gjson.Result) bool {
			err = a.o.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindThinkingDelta, int(k.Int()), s.String(), streaming.Final)
			return err == nil
		})
		if err != nil {
			return err
		}
		it.Get("content").ForEach(func(k, s gjson.Result) bool {
			err = a.o.Text(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindThinkingDelta, 1000+int(k.Int()), s.String(), streaming.Final)
			return err == nil
		})
		if err != nil {
			return err
		}
		return a.o.Stop(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
	case "commandExecution", "fileChange", "mcpToolCall", "dynamicToolCall", "webSearch", "collabAgentToolCall":
		if !completed {
			return a.toolStart(id, typ, it)
		}
		return a.toolEnd(id, typ, it)
	case "contextCompaction":
		if completed {
			return a.o.Status("context compacted", streaming.LevelInfo)
		}
		return nil
	case "exitedReviewMode":
		if completed {
			return a.o.Message(parsers.Msg{ID: id, Role: streaming.RoleAssistant}, streaming.KindTextDelta, it.Get("review").String())
		}
		return nil
	case "":
		return nil
	default:
		if completed {
			return a.o.Status(typ+itemNote(it), streaming.LevelInfo)
		}
		return nil
	}
}

// itemNote is the one-line detail of a minor item (imageView, sleep, …).
func itemNote(it gjson.Result) string {
	for _, k := range [...]string{"path", "savedPath", "kind", "agentPath"} {
		if s := it.Get(k).String(); s != "" {
			return ": " + s
		}
	}
	if ms := it.Get("durationMs").Int(); ms > 0 {
		return ": " + strconv.FormatInt(ms, 10) + " ms"
	}
	return ""
}

// userText joins the text parts of a user message.
func userText(content gjson.Result) string {
	var parts []string
	content.ForEach(func(_, c gjson.Result) bool {
		switch c.Get("type").String() {
		case "text":
			parts = append(parts, c.Get("text").String())
		case "image", "localImage":
			parts = append(parts, "‹image "+c.Get("url").String()+c.Get("path").String()+"›")
		}
		return true
	})
	return strings.Join(parts, "\n")
}

// describeApp fills a tool call's name, title and input from a v2 item.
func describeApp(ev *streaming.Event, typ string, it gjson.Result) {
	switch typ {
	case "commandExecution":
		ev.Name = nameShell
		ev.Title = it.Get("command").String()
		ev.Input = jsonObject("command", jsonString(ev.Title), "cwd", quoted(it.Get("cwd").String()))
	case "fileChange":
		ev.Name = namePatch
		ch := it.Get("changes")
		ev.Title = changeTitle(ch)
		ev.Input = jsonObject("changes", rawOrEmpty(ch))
		ev.Edits = changeEdits(ch)
	case "mcpToolCall", "dynamicToolCall":
		server, tool := it.Get("server").String(), it.Get("tool").String()
		if server == "" {
			server = it.Get("namespace").String()
		}
		ev.Name = parsers.CleanToolName(tool)
		if server != "" && tool != "" {
			ev.Name = server + "." + tool
		}
		if ev.Name == "" {
			ev.Name = typ
		}
		ev.Input = rawOrEmpty(it.Get("arguments"))
	case "webSearch":
		ev.Name = nameWebSearch
		q := it.Get("query").String()
		if q == "" {
			q = it.Get("action.query").String()
		}
		u := it.Get("action.url").String()
		switch {
		case q != "":
			ev.Title = q
			ev.Input = jsonObject("query", jsonString(q))
		case u != "":
			ev.Title = u
			ev.Input = jsonObject("url", jsonString(u))
		}
	case "collabAgentToolCall":
		ev.Name = it.Get("tool").String()
		if ev.Name == "" {
			ev.Name = typ
		}
		ev.Title = it.Get("prompt").String()
		ev.Input = jsonObject("prompt", quoted(ev.Title), "receiver_thread_ids", rawOrEmpty(it.Get("receiverThreadIds")))
	}
}

func (a *appServer) toolStart(id, typ string, it gjson.Result) error {
	ev := a.o.New(streaming.KindToolStart)
	ev.ID = id
	describeApp(ev, typ, it)
	return a.o.Push()
}

func (a *appServer) toolEnd(id, typ string, it gjson.Result) error {
	ev := a.o.New(streaming.KindToolEnd)
	ev.ID = id
	describeApp(ev, typ, it)
	if typ != "fileChange" {
		ev.Edits = nil
	}
	ev.DurationMS = it.Get("durationMs").Int()
	status := it.Get("status").String()
	switch typ {
	case "commandExecution":
		ev.Output = cleanOutput(it.Get("aggregatedOutput").String())
		ev.ExitCode = parsers.IntOrNil(it.Get("exitCode"))
		ev.Status = commandStatus(status, ev.ExitCode)
		if status == "completed" && ev.ExitCode == nil {
			ev.Status = streaming.ToolOK
		}
		if a.streamed[id] && ev.Output != "" {
			// The whole output after its deltas: a final the session
			// compares with what it showed.
			res := a.o.Ev
			o := a.o.New(streaming.KindToolOutputDelta)
			o.ID, o.Text = id, res.Output
			if err := a.o.Final(); err != nil {
				return err
			}
			a.o.Ev = res
		}
	case "fileChange":
		ev.Output = changeList(it.Get("changes"))
		ev.Status = toolStatus(status, streaming.ToolOK)
	case "mcpToolCall":
		ev.Status = toolStatus(status, streaming.ToolOK)
		if e := it.Get("error"); e.IsObject() || e.Type == gjson.String {
			ev.Output = e.Get("message").String()
			if e.Type == gjson.String {
				ev.Output = e.Str
			}
			ev.Status = streaming.ToolError
		} else {
			ev.Output = mcpOutput(it.Get("result"))
			if mcpIsError(it.Get("result")) {
				ev.Status = streaming.ToolError
			}
		}
	case "dynamicToolCall":
		ev.Status = toolStatus(status, streaming.ToolOK)
		ev.Output = mcpOutput(gjson.Parse(`{"content":` + rawOr(it.Get("contentItems"), "[]") + `}`))
		if s := it.Get("success"); s.Exists() && !s.Bool() {
			ev.Status = streaming.ToolError
		}
	case "collabAgentToolCall":
		ev.Status = toolStatus(status, streaming.ToolOK)
		ev.Output = agentStates(it.Get("agentsStates"))
	default:
		ev.Status = toolStatus(status, streaming.ToolOK)
	}
	delete(a.streamed, id)
	return a.o.Push()
}

func rawOr(v gjson.Result, def string) string {
	if v.IsArray() || v.IsObject() {
		return v.Raw
	}
	return def
}

// isAsk reports the server requests that wait for the user.
func isAsk(method string) bool {
	switch method {
	case "execCommandApproval", "applyPatchApproval", "item/tool/requestUserInput", "mcpServer/elicitation/request":
		return true
	}
	return strings.HasSuffix(method, "/requestApproval")
}

// request handles a server request: approvals become permission
// requests, under the request's JSON-RPC id.
func (a *appServer) request(l *parsers.Line, method string, p gjson.Result) error {
	rid := l.Get("id").Raw
	ev := a.o.New(streaming.KindPermissionRequest)
	ev.ID = rid
	item := p.Get("itemId").String()
	if item == "" {
		item = p.Get("callId").String()
	}
	a.asks[rid] = item
	switch {
	case strings.HasPrefix(method, "item/commandExecution") || method == "execCommandApproval":
		ev.Name = nameShell
		cmd := p.Get("command")
		ev.Title = cmd.String()
		if cmd.IsArray() {
			ev.Title = shellJoin(cmd.Array())
		}
	case strings.HasPrefix(method, "item/fileChange") || method == "applyPatchApproval":
		ev.Name = namePatch
	case method == "item/tool/requestUserInput":
		ev.Name = "request_user_input"
		ev.Title = p.Get("questions.0.question").String()
	case method == "mcpServer/elicitation/request":
		ev.Name = p.Get("serverName").String()
		ev.Title = p.Get("message").String()
	default:
		ev.Name = "permissions"
	}
	if r := p.Get("reason").String(); r != "" {
		if ev.Title == "" {
			ev.Title = r
		} else {
			ev.Title += " — " + r
		}
	}
	if ev.Title == "" && item != "" {
		ev.Title = item
	}
	ev.Input = rawOrEmpty(p)
	if method != "item/tool/requestUserInput" && method != "mcpServer/elicitation/request" {
		ev.Options = []streaming.PermissionOption{
			{ID: "accept", Name: "Accept", Kind: "allow_once"},
			{ID: "acceptForSession", Name: "Accept for session", Kind: "allow_always"},
			{ID: "decline", Name: "Decline", Kind: "reject_once"},
			{ID: "cancel", Name: "Cancel", Kind: "reject_once"},
		}
	}
	return a.o.Push()
}

// response handles a client's answer: to a pending approval, a
// permission response; to anything else, nothing.
func (a *appServer) response(l *parsers.Line) error {
	rid := l.Get("id").Raw
	if _, ok := a.asks[rid]; !ok {
		return nil
	}
	delete(a.asks, rid)
	r := l.Get("result")
	choice := r.Get("decision")
	ev := a.o.New(streaming.KindPermissionResponse)
	ev.ID = rid
	switch {
	case choice.Type == gjson.String:
		ev.Choice = choice.Str
	case choice.IsObject():
		choice.ForEach(func(k, _ gjson.Result) bool {
			ev.Choice = k.Str
			return false
		})
	case r.Get("action").Exists():
		ev.Choice = r.Get("action").String()
	default:
		ev.Choice = "answered"
	}
	return a.o.Push()
}
