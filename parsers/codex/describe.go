package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// `codex exec --json` (item.started, item.completed: snake_case) and the
// app-server (item/started, item/completed: camelCase) send the same
// items under two spellings. What an item is comes from itemKinds, the
// names of its fields from a spelling; describe and describeEnd read
// both.

// itemKind is what an item is, whichever spelling names it.
type itemKind uint8

const (
	itemOther itemKind = iota
	itemAgentMessage
	itemReasoning
	itemPlan
	itemUserMessage
	itemTodoList
	itemError
	itemCommand
	itemFileChange
	itemMCPCall
	itemDynamicCall
	itemWebSearch
	itemCollabCall
)

// itemKinds are the item types of both spellings (exec's 0.42
// experimental builds said assistant_message).
var itemKinds = map[string]itemKind{
	"agent_message": itemAgentMessage, "assistant_message": itemAgentMessage, "agentMessage": itemAgentMessage,
	"reasoning": itemReasoning, "plan": itemPlan, "userMessage": itemUserMessage,
	"todo_list": itemTodoList, "error": itemError,
	"command_execution": itemCommand, "commandExecution": itemCommand,
	"file_change": itemFileChange, "fileChange": itemFileChange,
	"mcp_tool_call": itemMCPCall, "mcpToolCall": itemMCPCall, "dynamicToolCall": itemDynamicCall,
	"web_search": itemWebSearch, "webSearch": itemWebSearch,
	"collab_tool_call": itemCollabCall, "collabAgentToolCall": itemCollabCall,
}

// isTool reports the kinds that are tool calls.
func (k itemKind) isTool() bool { return k >= itemCommand }

// spelling names an item's fields in one family of Codex input.
type spelling struct {
	output, exit, duration, receivers, states string
	// completedNoExit is the status of a command completed without an
	// exit code: older exec builds force-complete running commands at
	// the end of a turn; the app-server's commands finished.
	completedNoExit streaming.ToolStatus
	// agents names the threads of a collab call from their ids (and, in
	// the app-server, their agent paths).
	agents func(ids gjson.Result, it item) string
}

// item is an item's fields: a *parsers.Object (exec) or a gjson.Result.
type item interface {
	Get(path string) gjson.Result
}

var execSpelling = spelling{output: "aggregated_output", exit: "exit_code", duration: "duration_ms",
	receivers: "receiver_thread_ids", states: "agents_states", completedNoExit: streaming.ToolIncomplete,
	agents: func(ids gjson.Result, _ item) string {
		var names []string
		ids.ForEach(func(_, v gjson.Result) bool {
			names = append(names, v.String())
			return true
		})
		return strings.Join(names, ", ")
	}}

// appSpelling's agents is set by each app-server reader (agentNames),
// which knows its threads' paths.
var appSpelling = spelling{output: "aggregatedOutput", exit: "exitCode", duration: "durationMs",
	receivers: "receiverThreadIds", states: "agentsStates", completedNoExit: streaming.ToolOK}

// describe fills a tool call's name, title and input from an item of
// kind k and wire type typ, spelt as sp says.
func describe[I item](sp *spelling, ev *streaming.Event, k itemKind, typ string, it I) {
	switch k {
	case itemCommand:
		ev.Name = nameShell
		cmd := it.Get("command")
		ev.Title = cmd.String()
		if cmd.IsArray() {
			ev.Title = shellJoin(cmd.Array())
		}
		ev.Input = jsonObject("command", parsers.JSONString(ev.Title), "cwd", quoted(it.Get("cwd").String()))
	case itemFileChange:
		ev.Name = namePatch
		ch := it.Get("changes")
		ev.Title = changeTitle(ch)
		ev.Input = jsonObject("changes", rawOrEmpty(ch))
	case itemMCPCall, itemDynamicCall:
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
	case itemWebSearch:
		ev.Name = nameWebSearch
		a := it.Get("action")
		q := it.Get("query").String()
		if q == "" {
			q = a.Get("query").String()
		}
		if q == "" {
			q = a.Get("queries.0").String()
		}
		switch u := a.Get("url").String(); {
		case q != "":
			ev.Title = q
			ev.Input = jsonObject("query", parsers.JSONString(q))
		case u != "":
			pat := a.Get("pattern").String()
			ev.Title = u
			if pat != "" {
				ev.Title = pat + " in " + u
			}
			ev.Input = jsonObject("url", parsers.JSONString(u), "pattern", quoted(pat))
		}
	case itemCollabCall:
		ev.Name = it.Get("tool").String()
		if ev.Name == "" {
			ev.Name = typ
		}
		prompt := it.Get("prompt").String()
		recv := it.Get(sp.receivers)
		ev.Title = prompt
		if ev.Title == "" {
			ev.Title = sp.agents(recv, it)
		}
		if len(recv.Array()) == 0 {
			recv = gjson.Result{} // wait and spawn calls name none while they run
		}
		ev.Input = jsonObject("prompt", quoted(prompt), "receiver_thread_ids", rawOrEmpty(recv))
	}
}

// describeEnd fills what a completed tool item says of its outcome: its
// status, output, exit code and duration.
func describeEnd[I item](sp *spelling, ev *streaming.Event, k itemKind, it I) {
	ev.DurationMS = it.Get(sp.duration).Int()
	status := it.Get("status").String()
	ev.Status = toolStatus(status, streaming.ToolOK)
	switch k {
	case itemCommand:
		ev.Output = cleanOutput(commandOutput(sp, it))
		ev.ExitCode = parsers.IntOrNil(it.Get(sp.exit))
		ev.Status = commandStatus(status, ev.ExitCode)
		if status == "completed" && ev.ExitCode == nil {
			ev.Status = sp.completedNoExit
		}
	case itemFileChange:
		ev.Output = changeList(it.Get("changes"))
	case itemMCPCall:
		if e := it.Get("error"); e.IsObject() || e.Type == gjson.String {
			ev.Output = e.Get("message").String()
			if e.Type == gjson.String {
				ev.Output = e.Str
			}
			ev.Status = streaming.ToolError
		} else {
			res := it.Get("result")
			ev.Output = mcpOutput(res)
			if mcpIsError(res) {
				ev.Status = streaming.ToolError
			}
		}
	case itemDynamicCall:
		ev.Output = mcpOutput(gjson.Parse(`{"content":` + rawOr(it.Get("contentItems"), "[]") + `}`))
		if s := it.Get("success"); s.Exists() && !s.Bool() {
			ev.Status = streaming.ToolError
		}
	case itemWebSearch:
		if qs := it.Get("action.queries").Array(); len(qs) > 1 {
			lines := make([]string, len(qs))
			for i, q := range qs {
				lines[i] = q.String()
			}
			ev.Output = strings.Join(lines, "\n")
		}
	case itemCollabCall:
		ev.Output = agentStates(it.Get(sp.states))
	}
}

// commandOutput is a command's aggregated output (hand-written exec
// fixtures say "output").
func commandOutput[I item](sp *spelling, it I) string {
	if o := it.Get(sp.output); o.Exists() {
		return o.String()
	}
	return it.Get("output").String()
}

func rawOr(v gjson.Result, def string) string {
	if v.IsArray() || v.IsObject() {
		return v.Raw
	}
	return def
}
