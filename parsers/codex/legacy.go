package codex

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// legacyConfig handles the config summary a legacy exec run prints first
// (a flat map, keys in random order, some with spaces): it begins a run.
func (p *parser) legacyConfig(l *parsers.Line) error {
	return p.sessionStart("", l.Str("model"), l.Str("workdir"))
}

// legacyPrompt handles the {"prompt":…} line that follows the config
// summary: the user's prompt. Without a config line before it (the first
// --json builds), a prompt after a turn begins a new run.
func (p *parser) legacyPrompt(text string) error {
	if p.turns > 0 {
		if err := p.sessionStart("", "", ""); err != nil {
			return err
		}
	}
	return p.userMessage(text)
}

// legacy handles one {"id":…,"msg":{…}} line.
func (p *parser) legacy(l *parsers.Line, m gjson.Result) error {
	typ := m.Get("type").String()
	switch typ {
	case "session_configured":
		if p.started && p.turns == 0 {
			return nil // the config line already began this run
		}
		return p.sessionStart(m.Get("session_id").String(), m.Get("model").String(), m.Get("cwd").String())
	case "task_started":
		return p.turnStarted()
	case "task_complete":
		return p.taskComplete(m)
	case "agent_message":
		return p.lFinal(&p.lmsg, m.Get("message").String())
	case "agent_message_delta":
		return p.lDelta(&p.lmsg, m.Get("delta").String())
	case "agent_reasoning":
		return p.lFinal(&p.lrsn, m.Get("text").String())
	case "agent_reasoning_delta":
		return p.lDelta(&p.lrsn, m.Get("delta").String())
	case "agent_reasoning_section_break":
		p.lrsn.sectionBreak()
		return nil
	case "agent_reasoning_raw_content":
		return p.lFinal(&p.lraw, m.Get("text").String())
	case "agent_reasoning_raw_content_delta":
		return p.lDelta(&p.lraw, m.Get("delta").String())
	case "user_message":
		return p.userMessage(m.Get("message").String())
	case "exec_command_begin":
		_, err := p.legacyTool(l, m)
		return err
	case "exec_command_output_delta":
		k, err := p.legacyTool(l, m)
		if err != nil {
			return err
		}
		return p.chunk(k, m.Get("stream").String(), decodeChunk(m.Get("chunk")))
	case "exec_command_end":
		return p.execEnd(l, m)
	case "patch_apply_begin":
		_, err := p.legacyTool(l, m)
		return err
	case "patch_apply_end":
		return p.patchEnd(l, m)
	case "mcp_tool_call_begin", "web_search_begin":
		_, err := p.legacyTool(l, m)
		return err
	case "mcp_tool_call_end":
		return p.mcpEnd(l, m)
	case "web_search_end":
		return p.webSearchEnd(l, m)
	case "token_count":
		return p.tokenCount(m)
	case "plan_update":
		return p.planUpdate(m)
	case "error":
		return p.legacyError(m.Get("message").String())
	case "stream_error", "background_event", "turn_aborted":
		return p.legacyStatus(typ, m)
	case "exec_approval_request", "apply_patch_approval_request":
		return p.legacyApproval(l, typ, m)
	case "turn_diff", "shutdown_complete":
		// The turn's whole diff repeats the patches already shown; the
		// shutdown says nothing.
		return nil
	}
	return p.unknown(l, typ)
}

// legacyCallKey is the key of a legacy tool call.
func (p *parser) legacyCallKey(l *parsers.Line, m gjson.Result) string {
	id := m.Get("call_id").String()
	if id == "" {
		id = "call@" + itoa(l.N)
	}
	return p.key(id)
}

// legacyTool starts the tool call a legacy event belongs to, when it has
// not started, and returns its key. An event of a call that has ended
// starts it again: the session drops that start and what follows.
func (p *parser) legacyTool(l *parsers.Line, m gjson.Result) (string, error) {
	p.active = true
	k := p.legacyCallKey(l, m)
	if p.open[k] != nil {
		return k, nil
	}
	if err := p.settle(nil); err != nil {
		return "", err
	}
	t := &tool{}
	switch typ := m.Get("type").String(); {
	case strings.HasPrefix(typ, "exec_command"):
		t.name = nameShell
		cmd := m.Get("command")
		t.title = cmd.String()
		if cmd.IsArray() {
			t.title = shellJoin(cmd.Array())
		}
		if t.title != "" {
			t.input = jsonObject("command", parsers.JSONString(t.title), "cwd", quoted(m.Get("cwd").String()))
		}
	case strings.HasPrefix(typ, "patch_apply"):
		t.name = namePatch
		ch := m.Get("changes")
		t.summary = legacyChanges(ch)
		if first, rest, _ := strings.Cut(t.summary, "\n"); first != "" {
			t.title = first
			if rest != "" {
				t.title += " (+" + itoa(strings.Count(rest, "\n")+1) + " more)"
			}
		}
		t.input = jsonObject("changes", rawOrEmpty(ch))
	case strings.HasPrefix(typ, "mcp_tool_call"):
		inv := m.Get("invocation")
		server, name := inv.Get("server").String(), inv.Get("tool").String()
		t.name = parsers.CleanToolName(name)
		if server != "" && name != "" {
			t.name = server + "." + name
		}
		if t.name == "" {
			t.name = "mcp_tool_call"
		}
		t.input = rawOrEmpty(inv.Get("arguments"))
	case strings.HasPrefix(typ, "web_search"):
		t.name = nameWebSearch
		if q := m.Get("query").String(); q != "" {
			t.title = q
			t.input = jsonObject("query", parsers.JSONString(q))
		}
	default:
		t.name = "tool"
	}
	p.open[k] = t
	p.order = append(p.order, k)
	ev := p.out.New(streaming.KindToolStart)
	ev.ID = k
	ev.Name = t.name
	ev.Title = t.title
	ev.Input = t.input
	return k, p.out.Push()
}

// legacyEnd sends a tool.end for a legacy call.
func (p *parser) legacyEnd(k string, ev *streaming.Event) error {
	t := p.open[k]
	p.closeTool(k)
	ev.Kind = streaming.KindToolEnd
	ev.ID = k
	if t != nil {
		ev.Name = t.name
		if ev.Title == "" {
			ev.Title = t.title
		}
		if ev.Input == "" {
			ev.Input = t.input
		}
	}
	p.out.Ev = *ev
	return p.out.Push()
}

// execEnd: the command's exit code, duration and whole output. Output
// that streamed as chunks is kept by the session when the end event has
// none.
func (p *parser) execEnd(l *parsers.Line, m gjson.Result) error {
	k, err := p.legacyTool(l, m)
	if err != nil {
		return err
	}
	if err := p.flushCall(k); err != nil {
		return err
	}
	out := m.Get("aggregated_output").String()
	if out == "" {
		out = joinOutput(m.Get("stdout").String(), m.Get("stderr").String())
	}
	ev := streaming.Event{Output: cleanOutput(out)}
	ev.ExitCode = parsers.IntOrNil(m.Get("exit_code"))
	ev.Status = commandStatus("", ev.ExitCode)
	ev.DurationMS = durationMS(m.Get("duration"))
	return p.legacyEnd(k, &ev)
}

func joinOutput(stdout, stderr string) string {
	if stdout == "" || stderr == "" {
		return stdout + stderr
	}
	if !strings.HasSuffix(stdout, "\n") {
		stdout += "\n"
	}
	return stdout + stderr
}

// legacyChanges lists a patch's changes (an object keyed by path) as
// "kind path" lines.
func legacyChanges(ch gjson.Result) string {
	var lines []string
	ch.ForEach(func(path, c gjson.Result) bool {
		kind := c.String() // the early unit variant: "delete"
		var body gjson.Result
		if c.IsObject() {
			kind = ""
			c.ForEach(func(k, v gjson.Result) bool {
				kind, body = k.String(), v
				return false
			})
		}
		line := kind + " " + path.String()
		if mv := body.Get("move_path").String(); mv != "" {
			line += " → " + mv
		}
		lines = append(lines, strings.TrimSpace(line))
		return true
	})
	return strings.Join(lines, "\n")
}

// patchEnd: the change list, and apply_patch's own output when it failed.
func (p *parser) patchEnd(l *parsers.Line, m gjson.Result) error {
	k, err := p.legacyTool(l, m)
	if err != nil {
		return err
	}
	ev := streaming.Event{Status: streaming.ToolOK}
	if t := p.open[k]; t != nil {
		ev.Output = t.summary
	}
	if s := m.Get("success"); s.Exists() && !s.Bool() {
		ev.Status = streaming.ToolError
		if more := cleanOutput(joinOutput(m.Get("stdout").String(), m.Get("stderr").String())); more != "" {
			if ev.Output != "" {
				ev.Output += "\n"
			}
			ev.Output += more
		}
	}
	return p.legacyEnd(k, &ev)
}

// mcpEnd: result {"Ok":{content,isError}} or {"Err":"message"}.
func (p *parser) mcpEnd(l *parsers.Line, m gjson.Result) error {
	k, err := p.legacyTool(l, m)
	if err != nil {
		return err
	}
	ev := streaming.Event{Status: streaming.ToolOK, DurationMS: durationMS(m.Get("duration"))}
	res := m.Get("result")
	switch {
	case res.Get("Err").Exists():
		e := res.Get("Err")
		ev.Output = e.String()
		if e.IsObject() {
			ev.Output = e.Get("message").String()
		}
		ev.Status = streaming.ToolError
	case res.Get("Ok").Exists():
		ev.Output = mcpOutput(res.Get("Ok"))
		if mcpIsError(res.Get("Ok")) {
			ev.Status = streaming.ToolError
		}
	default:
		ev.Output = mcpOutput(res)
		if mcpIsError(res) {
			ev.Status = streaming.ToolError
		}
	}
	return p.legacyEnd(k, &ev)
}

func (p *parser) webSearchEnd(l *parsers.Line, m gjson.Result) error {
	k, err := p.legacyTool(l, m)
	if err != nil {
		return err
	}
	ev := streaming.Event{Status: streaming.ToolOK}
	if q := m.Get("query").String(); q != "" {
		ev.Title = q
		ev.Input = jsonObject("query", parsers.JSONString(q))
	}
	return p.legacyEnd(k, &ev)
}

// tokenCount: the running total (info.total_token_usage, or the flat
// fields of early builds) as a usage event; the last one goes on the
// result.
func (p *parser) tokenCount(m gjson.Result) error {
	u := usageOf(m.Get("info.total_token_usage"))
	if u == nil && m.Get("input_tokens").Exists() {
		u = usageOf(m)
	}
	if u == nil {
		return nil
	}
	u.ContextWindow = m.Get("info.model_context_window").Int()
	p.usage = u
	ev := p.out.New(streaming.KindUsage)
	uc := *u
	ev.Usage = &uc
	return p.out.Push()
}

func (p *parser) planUpdate(m gjson.Result) error {
	plan := m.Get("plan")
	if plan.Raw == p.lastPlan {
		return nil
	}
	p.lastPlan = plan.Raw
	var entries []streaming.PlanEntry
	plan.ForEach(func(_, v gjson.Result) bool {
		entries = append(entries, streaming.PlanEntry{Text: v.Get("step").String(), Status: v.Get("status").String()})
		return true
	})
	ev := p.out.New(streaming.KindPlan)
	ev.Entries = entries
	return p.out.Push()
}

// legacyError: the legacy error event ends the task in failure (the
// current format's turn.failed); task_complete after it adds nothing.
func (p *parser) legacyError(msg string) error {
	p.active = true
	if msg == "" {
		msg = "error"
	}
	text := errorText(msg)
	ev := p.out.New(streaming.KindError)
	ev.Text = text
	ev.Fatal = !p.failed
	if err := p.out.Push(); err != nil {
		return err
	}
	if p.failed {
		return nil
	}
	if err := p.endTurn(); err != nil {
		return err
	}
	return p.fail(text)
}

// taskComplete: the task's success, unless an error already failed it.
func (p *parser) taskComplete(m gjson.Result) error {
	p.active = true
	if err := p.endTurn(); err != nil {
		return err
	}
	if p.failed {
		return nil
	}
	ev := p.out.New(streaming.KindResult)
	ev.OK = true
	ev.Turns = p.turnCount()
	if t := m.Get("last_agent_message"); t.Type == gjson.String {
		ev.Text = t.Str
	}
	ev.Usage = p.usage
	return p.out.Push()
}

// legacyStatus: retry notices and background events as status lines; an
// aborted turn as a warning (the run then has no result).
func (p *parser) legacyStatus(typ string, m gjson.Result) error {
	ev := streaming.Event{Kind: streaming.KindStatus, Text: m.Get("message").String(), Level: streaming.LevelInfo}
	switch typ {
	case "stream_error":
		ev.Level = streaming.LevelWarning
	case "background_event":
		if isRetry(ev.Text) {
			ev.Level = streaming.LevelWarning
		}
	case "turn_aborted":
		if err := p.endTurn(); err != nil {
			return err
		}
		ev.Level = streaming.LevelWarning
		ev.Text = "turn aborted"
		if r := m.Get("reason").String(); r != "" {
			ev.Text += ": " + r
		}
	}
	if ev.Text == "" {
		return nil
	}
	p.out.Ev = ev
	return p.out.Push()
}

// legacyApproval: a command or patch waiting for approval.
func (p *parser) legacyApproval(l *parsers.Line, typ string, m gjson.Result) error {
	ev := streaming.Event{Kind: streaming.KindPermissionRequest, ID: p.legacyCallKey(l, m), Text: m.Get("reason").String()}
	if typ == "exec_approval_request" {
		ev.Name = nameShell
		cmd := m.Get("command")
		ev.Title = cmd.String()
		if cmd.IsArray() {
			ev.Title = shellJoin(cmd.Array())
		}
	} else {
		ev.Name = namePatch
		ev.Title, _, _ = strings.Cut(legacyChanges(m.Get("changes")), "\n")
	}
	p.out.Ev = ev
	return p.out.Push()
}
