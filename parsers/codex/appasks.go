package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// The app-server's server requests that wait for the user (approvals,
// questions, elicitations) and the client's answers to them.

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
		// thread/start, thread/resume and thread/fork answer with the
		// thread and its model.
		if r := l.Get("result"); r.Get("thread").IsObject() {
			a.respThread = strings.Clone(r.Get("thread.id").String())
			a.respModel = strings.Clone(r.Get("model").String())
			if a.root == "" {
				a.root = a.respThread
			}
		}
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
