package codex

import (
	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// The app-server's tool items: commands, file changes, MCP and dynamic
// tool calls, web searches and collab agent calls, started and ended by
// item/started and item/completed.

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
