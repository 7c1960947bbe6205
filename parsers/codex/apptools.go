package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// The app-server's tool items: commands, file changes, MCP and dynamic
// tool calls, web searches and collab agent calls, started and ended by
// item/started and item/completed.

// describe fills a tool call's name, title and input from a v2 item.
func (a *appServer) describe(ev *streaming.Event, typ string, it gjson.Result) {
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
		recv := it.Get("receiverThreadIds")
		if len(recv.Array()) == 0 {
			recv = gjson.Result{} // wait and spawnAgent name none while they run
		}
		ev.Input = jsonObject("prompt", quoted(ev.Title), "receiver_thread_ids", rawOrEmpty(recv))
		if ev.Title == "" {
			ev.Title = a.agentNames(recv, it.Get("receiverPaths"))
		}
	}
}

// agentNames names the threads of a collab call: their agent paths
// (receiverPaths, in the same order, which are remembered, or known from
// their spawn) where known, else the ends of their ids.
func (a *appServer) agentNames(ids, paths gjson.Result) string {
	var names []string
	ids.ForEach(func(k, t gjson.Result) bool {
		path := paths.Get(k.String()).String()
		switch c := a.children[t.String()]; {
		case path != "" && t.String() != "":
			a.childOf(t.String()).path = strings.Clone(path) // for the lines that name it without it
		case c != nil:
			path = c.path
		}
		names = append(names, agentTitle(t.String(), path))
		return true
	})
	return strings.Join(names, ", ")
}

func (a *appServer) toolStart(id, typ string, it gjson.Result) error {
	ev := a.o.New(streaming.KindToolStart)
	ev.ID = id
	a.describe(ev, typ, it)
	return a.o.Push()
}

func (a *appServer) toolEnd(id, typ string, it gjson.Result) error {
	if err := a.endEvent(id, typ, it); err != nil {
		return err
	}
	return a.o.Push()
}

// endEvent makes a.o.Ev the tool.end of a completed item, after sending
// the whole output of a command whose output streamed.
func (a *appServer) endEvent(id, typ string, it gjson.Result) error {
	ev := a.o.New(streaming.KindToolEnd)
	ev.ID = id
	a.describe(ev, typ, it)
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
	return nil
}

func rawOr(v gjson.Result, def string) string {
	if v.IsArray() || v.IsObject() {
		return v.Raw
	}
	return def
}
