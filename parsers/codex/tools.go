package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Tool names for Codex's built-in item types (MCP calls are server.tool).
const (
	nameShell     = "shell"
	namePatch     = "apply_patch"
	nameWebSearch = "web_search"
)

// toolItem handles the items that are tool calls: command_execution,
// file_change, mcp_tool_call, web_search and collab_tool_call. The first
// state seen starts the call (items of older builds arrive completed
// only); item.completed ends it.
func (p *parser) toolItem(k, typ string, it *parsers.Object, phase string) error {
	t := p.open[k]
	if t == nil {
		t = &tool{}
		describe(t, typ, it)
		p.open[k] = t
		p.order = append(p.order, k)
		ev := p.out.New(streaming.KindToolStart)
		ev.ID = k
		ev.Name = t.name
		ev.Title = t.title
		ev.Input = t.input
		if err := p.out.Push(); err != nil {
			return err
		}
	} else {
		// Later states may say more (web_search gets its query on
		// completion; a file_change is revised).
		describe(t, typ, it)
	}
	if phase != "item.completed" {
		if typ == "command_execution" {
			// aggregated_output is cumulative: a snapshot of the output.
			if out := commandOutput(it); out != "" {
				return p.outputSnapshot(k, t, cleanOutput(out))
			}
		}
		return nil
	}

	ev := streaming.Event{Kind: streaming.KindToolEnd, ID: k, Name: t.name, Title: t.title, Input: t.input}
	ev.DurationMS = it.Get("duration_ms").Int()
	status := it.Get("status").String()
	switch typ {
	case "command_execution":
		out := cleanOutput(commandOutput(it))
		if t.streamed && out != "" {
			if err := p.outputSnapshot(k, t, out); err != nil {
				return err
			}
		}
		ev.Output = out
		ev.ExitCode = parsers.IntOrNil(it.Get("exit_code"))
		ev.Status = commandStatus(status, ev.ExitCode)
	case "file_change":
		ev.Output = changeList(it.Get("changes"))
		ev.Status = toolStatus(status, streaming.ToolOK)
	case "mcp_tool_call":
		ev.Status = toolStatus(status, streaming.ToolOK)
		res := it.Get("result")
		if e := it.Get("error"); e.Exists() && e.Type != gjson.Null {
			msg := e.Get("message").String()
			if e.Type == gjson.String {
				msg = e.Str
			}
			ev.Output = msg
			ev.Status = streaming.ToolError
		} else {
			ev.Output = mcpOutput(res)
			if mcpIsError(res) {
				ev.Status = streaming.ToolError
			}
		}
	case "web_search":
		ev.Status = toolStatus(status, streaming.ToolOK)
		if qs := it.Get("action.queries").Array(); len(qs) > 1 {
			lines := make([]string, len(qs))
			for i, q := range qs {
				lines[i] = q.String()
			}
			ev.Output = strings.Join(lines, "\n")
		}
	case "collab_tool_call":
		ev.Status = toolStatus(status, streaming.ToolOK)
		ev.Output = agentStates(it.Get("agents_states"))
	}
	p.closeTool(k)
	p.out.Ev = ev
	return p.out.Push()
}

func (p *parser) outputSnapshot(k string, t *tool, out string) error {
	t.streamed = true
	ev := p.out.New(streaming.KindToolOutputDelta)
	ev.ID = k
	ev.Text = out
	return p.out.Snapshot()
}

// commandOutput is a command's aggregated_output (hand-written fixtures
// say "output").
func commandOutput(it *parsers.Object) string {
	if o := it.Get("aggregated_output"); o.Exists() {
		return o.String()
	}
	return it.Get("output").String()
}

// describe fills a tool call's name, title and input from an item.
func describe(t *tool, typ string, it *parsers.Object) {
	switch typ {
	case "command_execution":
		t.name = nameShell
		cmd := it.Get("command")
		text := cmd.String()
		if cmd.IsArray() {
			text = shellJoin(cmd.Array())
		}
		t.title = text
		t.input = jsonObject("command", jsonString(text), "cwd", quoted(it.Get("cwd").String()))
	case "file_change":
		t.name = namePatch
		ch := it.Get("changes")
		t.title = changeTitle(ch)
		t.input = jsonObject("changes", rawOrEmpty(ch))
	case "mcp_tool_call":
		server, name := it.Get("server").String(), it.Get("tool").String()
		switch {
		case server != "" && name != "":
			t.name = server + "." + name
		case name != "":
			t.name = parsers.CleanToolName(name)
		default:
			t.name = "mcp_tool_call"
		}
		t.input = rawOrEmpty(it.Get("arguments"))
	case "web_search":
		t.name = nameWebSearch
		q := it.Get("query").String()
		a := it.Get("action")
		if q == "" {
			q = a.Get("query").String()
		}
		if q == "" {
			q = a.Get("queries.0").String()
		}
		switch {
		case q != "":
			t.title = q
			t.input = jsonObject("query", jsonString(q))
		case a.Get("url").String() != "":
			u := a.Get("url").String()
			t.title = u
			if pat := a.Get("pattern").String(); pat != "" {
				t.title = pat + " in " + u
			}
			t.input = jsonObject("url", jsonString(u), "pattern", quoted(a.Get("pattern").String()))
		}
	case "collab_tool_call":
		t.name = it.Get("tool").String()
		if t.name == "" {
			t.name = "collab_tool_call"
		}
		prompt := it.Get("prompt").String()
		recv := it.Get("receiver_thread_ids")
		t.title = prompt
		if t.title == "" {
			var ids []string
			recv.ForEach(func(_, v gjson.Result) bool {
				ids = append(ids, v.String())
				return true
			})
			t.title = strings.Join(ids, ", ")
		}
		t.input = jsonObject("prompt", quoted(prompt), "receiver_thread_ids", rawOrEmpty(recv))
	}
}

// commandStatus: failed and declined as said; a completed command with a
// non-zero exit failed; one completed without an exit code was cut off at
// the end of the turn (older builds force-complete running commands).
func commandStatus(status string, exit *int) streaming.ToolStatus {
	switch status {
	case "failed":
		return streaming.ToolError
	case "declined":
		return streaming.ToolDeclined
	case "in_progress":
		return streaming.ToolIncomplete
	}
	if exit == nil {
		if status == "completed" {
			return streaming.ToolIncomplete
		}
		return streaming.ToolOK
	}
	if *exit != 0 {
		return streaming.ToolError
	}
	return streaming.ToolOK
}

// toolStatus maps an item status; def is used when there is none.
func toolStatus(status string, def streaming.ToolStatus) streaming.ToolStatus {
	switch status {
	case "completed", "success", "succeeded", "ok":
		return streaming.ToolOK
	case "failed", "error", "errored":
		return streaming.ToolError
	case "declined", "rejected":
		return streaming.ToolDeclined
	case "in_progress", "pending", "running", "interrupted", "cancelled":
		return streaming.ToolIncomplete
	}
	return def
}

// changeList is a file_change's output: one "kind path" line per change,
// each followed by its diff when the build sends one.
func changeList(ch gjson.Result) string {
	var b strings.Builder
	ch.ForEach(func(_, c gjson.Result) bool {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		kind := c.Get("kind")
		k := kind.String()
		if kind.IsObject() { // newer builds: {"type":"update","move_path":…}
			k = kind.Get("type").String()
		}
		if k == "" {
			k = "change"
		}
		b.WriteString(k)
		b.WriteByte(' ')
		b.WriteString(c.Get("path").String())
		if mv := kind.Get("move_path").String(); mv != "" {
			b.WriteString(" → ")
			b.WriteString(mv)
		}
		if d := c.Get("diff").String(); d != "" {
			b.WriteByte('\n')
			b.WriteString(strings.TrimSuffix(cleanOutput(d), "\n"))
		}
		return true
	})
	return b.String()
}

// changeTitle names a file change: "update /a/b.go", or "update /a/b.go
// (+2 more)".
func changeTitle(ch gjson.Result) string {
	arr := ch.Array()
	if len(arr) == 0 {
		return ""
	}
	k := arr[0].Get("kind")
	kind := k.String()
	if k.IsObject() {
		kind = k.Get("type").String()
	}
	title := strings.TrimSpace(kind + " " + arr[0].Get("path").String())
	if len(arr) > 1 {
		title += " (+" + itoa(len(arr)-1) + " more)"
	}
	return title
}

// agentStates is a collab_tool_call's output: one line per agent, its
// status and last message.
func agentStates(states gjson.Result) string {
	var lines []string
	states.ForEach(func(id, s gjson.Result) bool {
		line := id.String() + ": " + s.Get("status").String()
		if m := s.Get("message").String(); m != "" {
			line += " — " + m
		}
		lines = append(lines, line)
		return true
	})
	return strings.Join(lines, "\n")
}
