package acp

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// request handles a JSON-RPC request of either direction.
func (p *parser) request(l *parsers.Line, method string) error {
	key := l.Get("id").Raw
	params := l.Get("params")
	switch method {
	case "initialize", "authenticate", "logout", "session/list", "session/close",
		"session/delete", "session/set_config_option", "session/set_model":
		p.clientReqs[key] = method
		return nil
	case "session/new":
		p.clientReqs[key] = method
		if c := params.Get("cwd").Str; c != "" {
			p.cwd = c
		}
		return nil
	case "session/load", "session/resume":
		p.clientReqs[key] = method
		p.sessionID = firstNonEmpty(params.Get("sessionId").Str, p.sessionID)
		if c := params.Get("cwd").Str; c != "" {
			p.cwd = c
		}
		if err := p.newRun(); err != nil {
			return err
		}
		if method == "session/load" {
			// The agent replays the history as session/update before its
			// response.
			p.loading = true
			return p.status("session/load: replaying the session's history", streaming.LevelInfo)
		}
		return nil
	case "session/prompt":
		p.clientReqs[key] = method
		if s := params.Get("sessionId").Str; s != "" {
			p.sessionID = s
		}
		if p.turnDone || p.prompted {
			// A new turn is a run of its own, so that a prompt left
			// without its response ends as incomplete, and a transcript
			// that holds the same turn twice shows it twice (the session
			// scopes identity to a run).
			if err := p.startRun(); err != nil {
				return err
			}
		}
		if err := p.ensureRun(); err != nil {
			return err
		}
		p.prompted = true
		return p.prompt(l)
	case "session/set_mode":
		p.clientReqs[key] = method
		return p.modeChange(l, params.Get("modeId").Str)
	case "session/request_permission":
		return p.permission(l, key, params)
	case "fs/read_text_file", "fs/write_text_file", "terminal/create", "terminal/kill", "terminal/release":
		// Client services a tool call uses; the tool call shows the work.
		p.agentReqs[key] = &agentReq{method: method}
		return p.ensureRun()
	case "terminal/output", "terminal/wait_for_exit":
		p.agentReqs[key] = &agentReq{method: method, terminal: params.Get("terminalId").String()}
		return p.ensureRun()
	}
	p.agentReqs[key] = &agentReq{method: method}
	return p.unknown(l, method)
}

// newRun starts a run for session/new or session/load unless the current
// one has not begun a turn yet.
func (p *parser) newRun() error {
	if p.started && !p.turnDone {
		return nil
	}
	return p.startRun()
}

// notification handles a JSON-RPC notification other than session/update.
func (p *parser) notification(l *parsers.Line, method string) error {
	switch method {
	case "session/cancel":
		return p.status("cancel requested", streaming.LevelWarning)
	case "$/cancel_request":
		return nil
	}
	return p.unknown(l, method)
}

// permission shows session/request_permission: its tool call is upserted
// into the table (it may never have been announced), the options kept to
// resolve the answer.
func (p *parser) permission(l *parsers.Line, key string, params gjson.Result) error {
	tc := params.Get("toolCall")
	req := &agentReq{method: "session/request_permission"}
	var t *tool
	if tc.IsObject() {
		if err := p.toolCall(l, new(parsers.Object).Reset(tc.Raw)); err != nil {
			return err
		}
		req.toolID = tc.Get("toolCallId").String()
		t = p.tools[req.toolID]
	}
	if err := p.entry(l); err != nil {
		return err
	}
	params.Get("options").ForEach(func(_, o gjson.Result) bool {
		req.options = append(req.options, streaming.PermissionOption{
			ID: o.Get("optionId").String(), Name: o.Get("name").Str, Kind: o.Get("kind").Str,
		})
		return true
	})
	req.permID = req.toolID
	if req.permID == "" {
		req.permID = "permission" + key
	}
	p.agentReqs[key] = req
	ev := p.out.New(streaming.KindPermissionRequest)
	ev.ID, ev.Options = req.permID, req.options
	if t != nil {
		ev.Name, ev.Title = t.name, t.title
	}
	return p.out.Push()
}

// response matches a JSON-RPC response to its request. Ids are counted per
// direction and can collide, so the result's shape decides first.
func (p *parser) response(l *parsers.Line) error {
	key := l.Get("id").Raw
	res, errv := l.Get("result"), l.Get("error")
	areq, isAgent := p.agentReqs[key]
	creq, isClient := p.clientReqs[key]
	switch {
	case res.Get("stopReason").Exists():
		if creq == "session/prompt" {
			delete(p.clientReqs, key)
		}
		return p.turnEnd(l, res)
	case res.Get("outcome").Exists():
		if isAgent && areq.method == "session/request_permission" {
			delete(p.agentReqs, key)
		} else {
			areq = &agentReq{permID: "permission" + key}
		}
		return p.permissionAnswer(areq, res.Get("outcome"))
	case res.Get("protocolVersion").Exists():
		delete(p.clientReqs, key)
		return p.initialized(res)
	case res.Get("sessionId").Exists() && creq != "session/load":
		delete(p.clientReqs, key)
		return p.sessionNew(res)
	case errv.Exists():
		return p.errorResponse(l, key, errv)
	case isAgent && (!isClient || agentShape(areq.method, res)):
		delete(p.agentReqs, key)
		return p.agentAnswer(areq, res)
	case isClient:
		delete(p.clientReqs, key)
		return p.clientAnswer(creq, res)
	}
	// An acknowledgement of a request this transcript does not hold.
	return p.ensureRun()
}

// agentShape reports whether res looks like the answer to an agent→client
// request of that method (used when ids of both directions collide).
func agentShape(method string, res gjson.Result) bool {
	switch method {
	case "terminal/output":
		return res.Get("output").Exists()
	case "terminal/wait_for_exit":
		return res.Get("exitCode").Exists() || res.Get("signal").Exists()
	case "terminal/create":
		return res.Get("terminalId").Exists()
	case "fs/read_text_file":
		return res.Get("content").Exists()
	}
	return false
}

// initialized notes the agent's name and protocol version, shown after
// the run's session.start.
func (p *parser) initialized(res gjson.Result) error {
	info := res.Get("agentInfo")
	name := firstNonEmpty(info.Get("title").Str, info.Get("name").Str)
	if v := info.Get("version").Str; v != "" && name != "" {
		name += " " + v
	}
	pv := res.Get("protocolVersion").String()
	if name != "" {
		p.agentInfo = name + " (ACP protocol " + pv + ")"
	} else {
		p.agentInfo = "ACP protocol " + pv
	}
	if res.Get("protocolVersion").Int() > 1 {
		p.agentInfo += ": a draft version, read as v1"
	}
	return nil
}

// sessionNew begins the run of a new session.
func (p *parser) sessionNew(res gjson.Result) error {
	p.sessionID = firstNonEmpty(res.Get("sessionId").Str, p.sessionID)
	p.sessionMeta(res)
	return p.newRun()
}

// sessionMeta reads the current model and mode of a session/new or
// session/load result.
func (p *parser) sessionMeta(res gjson.Result) {
	if m := res.Get("models.currentModelId").Str; m != "" {
		p.model = m
	}
	if m := res.Get("modes.currentModeId").Str; m != "" {
		p.mode = m
	}
}

func (p *parser) clientAnswer(method string, res gjson.Result) error {
	switch method {
	case "session/load":
		p.sessionMeta(res)
		if !p.loading {
			return nil
		}
		p.loading = false
		if err := p.closeMsg(); err != nil {
			return err
		}
		p.last = entOther
		if err := p.endOpenTools(); err != nil {
			return err
		}
		return p.status("end of the replayed history", streaming.LevelInfo)
	case "session/resume":
		p.sessionMeta(res)
	}
	return nil
}

// agentAnswer reads the client's answer to a terminal request: the output
// of the terminal a tool call shows, and its exit status.
func (p *parser) agentAnswer(req *agentReq, res gjson.Result) error {
	if req.terminal == "" {
		return nil
	}
	t := p.tools[p.terminals[req.terminal]]
	if t == nil {
		return nil
	}
	code := res.Get("exitStatus.exitCode")
	if req.method == "terminal/wait_for_exit" {
		code = res.Get("exitCode")
	}
	if code.Type == gjson.Number {
		t.exit = parsers.IntOrNil(code)
	}
	if out := res.Get("output"); out.Type == gjson.String {
		t.termOut = out.Str
		if !t.ended {
			return p.showOutput(t)
		}
	}
	return nil
}

// permissionAnswer shows the client's choice. A rejection marks the tool
// call declined.
func (p *parser) permissionAnswer(req *agentReq, out gjson.Result) error {
	if err := p.ensureRun(); err != nil {
		return err
	}
	ev := p.out.New(streaming.KindPermissionResponse)
	ev.ID, ev.Options = req.permID, req.options
	var kind string
	if out.Get("outcome").Str == "selected" || out.Get("optionId").Exists() {
		ev.Choice = out.Get("optionId").String()
		for _, o := range req.options {
			if o.ID == ev.Choice {
				kind = o.Kind
			}
		}
	} else {
		ev.Choice = firstNonEmpty(out.Get("outcome").Str, "cancelled")
		kind = "reject"
	}
	if t := p.tools[req.toolID]; t != nil {
		ev.Name, ev.Title = t.name, t.title
		if strings.HasPrefix(kind, "reject") {
			t.declined = true
		}
	}
	return p.out.Push()
}

// turnEnd is the response to session/prompt: the turn is over.
// end_turn succeeds; max_tokens, max_turn_requests, refusal and cancelled
// do not (the answer is cut short, refused or abandoned).
func (p *parser) turnEnd(l *parsers.Line, res gjson.Result) error {
	if err := p.closeTurn(); err != nil {
		return err
	}
	stop := res.Get("stopReason").Str
	ev := p.out.New(streaming.KindResult)
	ev.OK = stop == "end_turn"
	ev.Reason = stop
	if !ev.OK {
		ev.Reason = firstNonEmpty(stopReasons[stop], stop, "unknown stop reason")
	}
	if u := res.Get("usage"); u.IsObject() {
		ev.Usage = &streaming.Usage{
			InputTokens:      u.Get("inputTokens").Int(),
			OutputTokens:     u.Get("outputTokens").Int() + u.Get("thoughtTokens").Int(),
			CacheReadTokens:  u.Get("cachedReadTokens").Int(),
			CacheWriteTokens: u.Get("cachedWriteTokens").Int(),
		}
	}
	if p.lastCost != nil {
		if ev.Usage == nil {
			ev.Usage = &streaming.Usage{}
		}
		ev.Usage.CostUSD, ev.Usage.HasCost = *p.lastCost, true
	}
	p.turnDone = true
	return p.out.Push()
}

// closeTurn closes what a turn left open, as its end or failure comes.
func (p *parser) closeTurn() error {
	if err := p.ensureRun(); err != nil {
		return err
	}
	if err := p.closeMsg(); err != nil {
		return err
	}
	p.last = entNone
	return p.endOpenTools()
}

// errorResponse handles a JSON-RPC error. For session/prompt it ends the
// turn as a failure; otherwise it is shown as an error.
func (p *parser) errorResponse(l *parsers.Line, key string, errv gjson.Result) error {
	msg := firstNonEmpty(errv.Get("message").Str, errv.String())
	if c := errv.Get("code"); c.Exists() {
		msg = "error " + c.String() + ": " + msg
	}
	if d := errv.Get("data"); d.Exists() && d.Type != gjson.Null {
		if d.Type == gjson.String {
			msg += " (" + parsers.Clip(d.Str, 200) + ")"
		} else if dm := d.Get("message").Str; dm != "" {
			msg += " (" + parsers.Clip(dm, 200) + ")"
		}
	}
	method := p.clientReqs[key]
	delete(p.clientReqs, key)
	if method == "session/prompt" {
		if err := p.closeTurn(); err != nil {
			return err
		}
		ev := p.out.New(streaming.KindError)
		ev.Text, ev.Fatal = msg, true
		if err := p.out.Push(); err != nil {
			return err
		}
		ev = p.out.New(streaming.KindResult)
		ev.Reason = msg
		p.turnDone = true
		return p.out.Push()
	}
	if method == "session/load" {
		p.loading = false
	}
	if method == "" {
		if r, ok := p.agentReqs[key]; ok {
			method = r.method
			delete(p.agentReqs, key)
		}
	}
	if err := p.entry(nil); err != nil {
		return err
	}
	ev := p.out.New(streaming.KindError)
	ev.Text = msg
	if method != "" {
		ev.Text = method + ": " + msg
	}
	return p.out.Push()
}
