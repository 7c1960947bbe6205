package copilot

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// parser is the state of one Copilot stream: where the run is, and the
// ids of the messages it opened. It keeps no text: the session does.
type parser struct {
	out parsers.Out // its Time is the line's timestamp
	ids parsers.IDs
	n   int // the line's number

	started bool   // session.start was emitted for the current run
	first   string // the event id of the run's first line: seen again, the log repeats
	model   string // the model the preamble named, for session.start
	turns   int    // assistant turns of the run

	open map[string]bool // text message ids opened and not yet stopped

	// The thinking message of the current model call: its id, and
	// whether it is open. Once closed (the call's assistant.message came)
	// later reasoning of the call is sent to it as a final, which the
	// session drops as already shown.
	think     string
	thinkOpen bool
	thinkDone bool // the call's assistant.message has come: its reasoning is over

	failMsg string // a session.error or failed shutdown of the run
	aborted string // the abort reason, when the run was aborted
}

func newParser() *parser {
	return &parser{open: make(map[string]bool)}
}

// quiet are the types shown as nothing: the session preamble, internal
// telemetry and floods (docs/formats/copilot.md). Their facts are either
// repeated by other events or of no use to a reader.
var quiet = map[string]bool{
	"session.skills_loaded":            true,
	"session.custom_agents_updated":    true,
	"session.extensions_loaded":        true,
	"session.background_tasks_changed": true,
	"session.usage_checkpoint":         true,
	"session.title_changed":            true,
	"session.context_changed":          true,
	"session.todos_changed":            true,
	"session.truncation":               true,
	"session.idle":                     true,
	"session.permissions_changed":      true,
	"session.workspace_file_changed":   true,
	"session.usage_info":               true,
	"mcp.tools.list_changed":           true,
	"model.call_finished":              true,
	"model.call_final_result":          true,
	"assistant.tool_call_delta":        true,
	"assistant.streaming_delta":        true,
	"assistant.intent":                 true,
	"prompt_cache_break":               true,
	"pending_messages.modified":        true,
	"hook.start":                       true,
	"hook.end":                         true,
	"hook.progress":                    true,
	"system.message":                   true,
	"sandbox.decision":                 true,
	"session.mode_changed":             true,
	"skill.invoked":                    true,
	"subagent.selected":                true,
	"subagent.deselected":              true,
}

// quietPrefixes are families the notes list as nothing to show: their
// facts (an approval asked and given, a question to the user in an
// interactive session) have no text of their own on -p stdout.
var quietPrefixes = [...]string{"hook.", "permission.", "user_input.", "elicitation.", "exit_plan_mode.", "canvas.", "factory."}

func isQuiet(typ string) bool {
	if quiet[typ] || preamble(typ) {
		return true
	}
	for _, p := range quietPrefixes {
		if strings.HasPrefix(typ, p) {
			return true
		}
	}
	return false
}

// preamble are the types that come before the run's first turn: they do
// not begin a run (session.start is emitted at the first line that is
// not one, with the model they named).
func preamble(typ string) bool {
	switch typ {
	case "session.mcp_server_status_changed", "session.mcp_servers_loaded", "session.tools_updated",
		"session.auto_mode_resolved", "session.skills_loaded", "session.custom_agents_updated",
		"session.extensions_loaded", "session.background_tasks_changed", "mcp.tools.list_changed":
		return true
	}
	return false
}

// Parse handles one line.
func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit = emit
	p.out.Time, p.n = parsers.TimeOf(l.Get("timestamp")), l.N
	typ := l.Str("type")
	if typ == "result" {
		return p.result(l)
	}
	d := readData(l)
	if typ == "session.start" || typ == "session.resume" {
		return p.sessionStart(l, &d)
	}
	if id := l.Str("id"); id != "" {
		if p.started && id == p.first {
			// The run's first event again: the log repeats (`cat
			// run.jsonl run.jsonl`) or a cut-off run was replayed. -p
			// stdout has no session.start, so this begins the new run.
			if err := p.endRun(); err != nil {
				return err
			}
		}
		if p.first == "" {
			// The run's first line with an id, preamble included: a
			// repeat is known before its preamble is shown in the old run.
			p.first = strings.Clone(id)
		}
	}
	if !p.started && !preamble(typ) {
		if err := p.begin(); err != nil {
			return err
		}
	}
	switch typ {
	case "session.mcp_server_status_changed", "session.mcp_servers_loaded":
		return p.mcpStatus(l, &d)
	case "session.tools_updated":
		p.setModel(l.Text(d.model))
		return nil
	case "session.auto_mode_resolved":
		p.setModel(l.Text(d.chosenModel))
		return nil
	case "user.message":
		return p.userMessage(l, &d)
	case "assistant.turn_start":
		p.turns++
		p.setModel(l.Text(d.model))
		return p.newCall()
	case "model.call_start":
		return p.newCall()
	case "assistant.turn_end":
		return p.closeThinking()
	case "assistant.reasoning_delta":
		return p.thinking(l.Text(d.deltaContent), streaming.Delta)
	case "assistant.reasoning":
		return p.thinking(redacted(l.Text(d.content)), streaming.Final)
	case "assistant.message_start":
		if err := p.closeThinking(); err != nil {
			return err
		}
		_, err := p.openText(p.messageID(l, &d), l.Text(d.parentToolCallID))
		return err
	case "assistant.message_delta":
		return p.textDelta(l, &d)
	case "assistant.message":
		return p.message(l, &d)
	case "assistant.usage":
		return p.usage(l, &d)
	case "assistant.idle":
		if d.aborted == "true" && p.aborted == "" {
			p.aborted = "aborted"
		}
		return p.closeThinking()
	case "abort":
		p.aborted = "aborted"
		if r := l.Text(d.reason); r != "" {
			p.aborted = "aborted (" + r + ")"
		}
		return p.out.Status(p.aborted, streaming.LevelWarning)
	case "tool.execution_start":
		return p.toolStart(l, &d)
	case "tool.execution_partial_result":
		e := p.out.New(streaming.KindToolOutputDelta)
		e.ID, e.Text = l.Text(d.toolCallID), l.Text(d.partialOutput)
		if e.Text == "" {
			return nil
		}
		return p.out.Push()
	case "tool.execution_progress":
		return p.out.Status(l.Text(d.progressMessage), streaming.LevelInfo)
	case "tool.execution_complete":
		return p.toolEnd(l, &d)
	case "session.error":
		return p.sessionError(l, &d)
	case "session.shutdown":
		if l.Text(d.shutdownType) == "error" {
			msg := l.Text(d.errorReason)
			if msg == "" {
				msg = "the session shut down on an error"
			}
			return p.fail(msg)
		}
		return nil
	case "model.call_failure":
		msg := l.Text(d.errorMessage)
		if msg == "" {
			msg = "a model call failed"
		}
		return p.out.Status("model call failed: "+msg, streaming.LevelWarning)
	case "assistant.turn_retry":
		msg := "retrying the turn"
		if r := l.Text(d.reason); r != "" {
			msg += ": " + r
		}
		return p.out.Status(msg, streaming.LevelWarning)
	case "session.info":
		return p.out.Status(l.Text(d.message), streaming.LevelInfo)
	case "session.warning":
		return p.out.Status(l.Text(d.message), streaming.LevelWarning)
	case "session.compaction_start":
		return p.out.Status("compacting the context", streaming.LevelInfo)
	case "session.compaction_complete":
		if d.success == "false" {
			msg := "compaction failed"
			if m := errString(l, d.errorText); m != "" {
				msg += ": " + m
			}
			return p.out.Status(msg, streaming.LevelWarning)
		}
		return p.out.Status("context compacted", streaming.LevelInfo)
	case "session.task_complete":
		return p.out.Status(l.Text(d.summary), streaming.LevelInfo)
	case "system.notification":
		return p.out.Status(l.Text(d.content), streaming.LevelInfo)
	case "session.plan_changed":
		return p.out.Status("plan "+l.Text(d.operation), streaming.LevelInfo)
	case "session.model_change":
		return p.out.Status("model: "+l.Text(d.newModel), streaming.LevelInfo)
	case "subagent.started", "subagent.completed", "subagent.failed":
		return p.subagent(typ, l, &d)
	}
	if isQuiet(typ) {
		return nil
	}
	return p.out.Unknown(typ, l.JSON)
}

// Finish closes what the parser opened; open tool calls are left to the
// session, which ends them as incomplete.
func (p *parser) Finish(emit parsers.Emit) error {
	p.out.Emit = emit
	return p.closeAll()
}

func (p *parser) setModel(m string) {
	if m != "" && m != p.model {
		p.model = strings.Clone(m)
	}
}

// begin starts a run: Copilot's -p stdout has no session.start line.
func (p *parser) begin() error {
	p.started = true
	e := p.out.New(streaming.KindSessionStart)
	e.Model = p.model
	return p.out.Push()
}

// sessionStart is the session.start (or resume) of events.jsonl.
func (p *parser) sessionStart(l *parsers.Line, d *data) error {
	if p.started {
		if err := p.endRun(); err != nil {
			return err
		}
	}
	p.started = true
	p.first = strings.Clone(l.Str("id"))
	e := p.out.New(streaming.KindSessionStart)
	e.SessionID = l.Text(d.sessionID)
	e.Model = l.Text(d.selectedModel)
	if e.Model == "" {
		e.Model = p.model
	}
	e.CWD = l.Field(d.context, "cwd").String()
	return p.out.Push()
}

// mcpStatus shows MCP servers that failed to start (the others are
// preamble noise).
func (p *parser) mcpStatus(l *parsers.Line, d *data) error {
	show := func(name, status, errText string) error {
		switch status {
		case "failed", "needs-auth":
		default:
			return nil
		}
		msg := "MCP server " + name + " " + status
		if errText != "" {
			msg += ": " + errText
		}
		return p.out.Status(msg, streaming.LevelWarning)
	}
	if d.serverName != "" {
		return show(l.Text(d.serverName), l.Text(d.status), errString(l, d.errorText))
	}
	for it := l.ElementsOf(d.servers); it.Next(); {
		v := it.Value()
		if err := show(v.Get("name").String(), v.Get("status").String(), v.Get("error").String()); err != nil {
			return err
		}
	}
	return nil
}

// sessionError is a user-facing error of the session: the run failed.
func (p *parser) sessionError(l *parsers.Line, d *data) error {
	msg := l.Text(d.message)
	if t := l.Text(d.errorType); t != "" && msg != "" {
		msg = t + ": " + msg
	} else if msg == "" {
		msg = t
	}
	if msg == "" {
		msg = "session error"
	}
	return p.fail(msg)
}

func (p *parser) fail(msg string) error {
	if p.failMsg == "" {
		p.failMsg = strings.Clone(msg)
	}
	e := p.out.New(streaming.KindError)
	e.Text, e.Fatal = msg, true
	return p.out.Push()
}

// subagent shows a sub-agent's start and end as status lines under the
// task call that started it.
func (p *parser) subagent(typ string, l *parsers.Line, d *data) error {
	name := l.Text(d.agentDisplayName)
	if name == "" {
		name = l.Text(d.agentName)
	}
	if name == "" {
		name = "sub-agent"
	}
	level := streaming.LevelVerbose // (its call shows it running and done: chatter)
	msg := name + " started"
	switch typ {
	case "subagent.completed":
		msg = name + " finished"
	case "subagent.failed":
		msg, level = name+" failed", streaming.LevelWarning
		if m := errString(l, d.errorText); m != "" {
			msg += ": " + m
		}
	}
	e := p.out.New(streaming.KindStatus)
	e.Text, e.Level, e.Parent = msg, level, l.Text(d.toolCallID)
	return p.out.Push()
}

// result ends the run: exitCode 0 is success unless the stream reported
// a session error or an abort.
func (p *parser) result(l *parsers.Line) error {
	if !p.started {
		if err := p.begin(); err != nil {
			return err
		}
	}
	if err := p.closeAll(); err != nil {
		return err
	}
	u := l.Get("usage")
	if err := p.out.Status(usageNote(u), streaming.LevelInfo); err != nil {
		return err
	}
	code := l.Get("exitCode")
	e := p.out.New(streaming.KindResult)
	e.OK = code.Int() == 0 && p.failMsg == "" && p.aborted == ""
	switch {
	case code.Int() != 0 && p.failMsg != "":
		e.Reason = p.failMsg
	case code.Int() != 0:
		e.Reason = "copilot exited with status " + code.Raw
	case p.failMsg != "":
		e.Reason = p.failMsg
	case p.aborted != "":
		e.Reason = p.aborted
	}
	e.Turns = p.turns
	e.DurationMS = u.Get("sessionDurationMs").Int()
	p.endRunState()
	return p.out.Push()
}

// usageNote is what Copilot reports of a run's cost instead of tokens
// (docs/formats/copilot.md): premium requests, API time, lines changed.
func usageNote(u gjson.Result) string {
	var parts []string
	if pr := u.Get("premiumRequests"); pr.Float() > 0 {
		n := strconv.FormatFloat(pr.Float(), 'f', -1, 64)
		if n == "1" {
			parts = append(parts, "1 premium request")
		} else {
			parts = append(parts, n+" premium requests")
		}
	}
	if ms := u.Get("totalApiDurationMs").Int(); ms > 0 {
		parts = append(parts, "API time "+(time.Duration(ms)*time.Millisecond).Round(100*time.Millisecond).String())
	}
	if cc := u.Get("codeChanges"); cc.IsObject() {
		add, del := cc.Get("linesAdded").Int(), cc.Get("linesRemoved").Int()
		if files := len(cc.Get("filesModified").Array()); add+del > 0 || files > 0 {
			parts = append(parts, fmt.Sprintf("+%d −%d lines in %d file%s", add, del, files, plural(files)))
		}
	}
	return strings.Join(parts, " · ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// endRun closes the run's messages when another run begins without a
// result (the session reports the missing result).
func (p *parser) endRun() error {
	err := p.closeAll()
	p.endRunState()
	return err
}

func (p *parser) endRunState() {
	p.started, p.first = false, ""
	p.turns = 0
	p.failMsg, p.aborted = "", ""
	p.think, p.thinkOpen, p.thinkDone = "", false, false
}

// redacted is "" for the literal "[REDACTED]" some captures hold where
// text was (docs/formats/copilot.md): the streamed text stands instead.
func redacted(s string) string {
	if s == "[REDACTED]" {
		return ""
	}
	return s
}
