package claude

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// system handles `system` frames: init starts a run, every other subtype
// is one status line. Two are dropped: thinking_tokens arrives several
// times a second and only estimates what the thinking block shows, and
// hook_started is followed by its hook_response.
func (p *parser) system(l *parsers.Line) error {
	sub := l.Str("subtype")
	switch sub {
	case "init", "session_start":
		return p.init(l, sub)
	case "thinking_tokens":
		return nil
	case "compact_boundary":
		meta := l.Get("compact_metadata")
		text := "context compacted"
		if t := meta.Get("trigger").String(); t != "" {
			text += " (" + t + ")"
		}
		pre, post := meta.Get("pre_tokens"), meta.Get("post_tokens")
		switch {
		case pre.Exists() && post.Exists():
			text += fmt.Sprintf(": %d → %d tokens", pre.Int(), post.Int())
		case pre.Exists():
			text += fmt.Sprintf(": %d tokens before", pre.Int())
		}
		return p.out.Status(text, streaming.LevelInfo)
	case "status":
		return p.statusFrame(l)
	case "api_retry":
		return p.out.Status(retryText(l), streaming.LevelWarning)
	case "hook_started":
		// Its hook_response says how it went: one line per hook.
		return nil
	case "hook_response":
		return p.hookResponse(l)
	case "task_started":
		text := "task started: " + oneLine(l.Str("description"))
		if s := l.Str("subagent_type"); s != "" {
			text += " (" + s + ")"
		} else if s := l.Str("task_type"); s != "" {
			text += " (" + s + ")"
		}
		return p.out.Status(text, streaming.LevelVerbose) // (chatter: --verbose)
	case "task_progress":
		text := "task progress: " + oneLine(firstOf(l.Str("summary"), l.Str("description")))
		if t := l.Str("last_tool_name"); t != "" {
			text += " (last tool " + parsers.CleanToolName(t) + ")"
		}
		return p.out.Status(text, streaming.LevelVerbose)
	case "task_updated":
		// Bookkeeping: its task_notification says how the task ended.
		st := l.Path("patch.status").String()
		return p.out.Status(strings.TrimSpace("task "+l.Str("task_id")+" "+st), streaming.LevelVerbose)
	case "task_notification":
		// A task that ended, often after the run's result: a background
		// task the CLI stops when the session ends is "stopped" or
		// "killed", bookkeeping; only a failure is a warning. After a
		// result it starts the next turn (sayWhy).
		st := l.Str("status")
		level := streaming.LevelVerbose
		if st == "failed" || st == "error" {
			level = streaming.LevelWarning
		}
		about := oneLine(firstOf(l.Str("summary"), l.Str("description")))
		text := "task " + firstOf(st, "finished")
		if about != "" {
			text += ": " + about
		}
		if p.afterResult {
			p.taskNote = strings.Clone(firstOf(about, "task "+l.Str("task_id")))
		}
		return p.out.Status(text, level)
	case "background_tasks_changed":
		tasks := l.Get("tasks").Array()
		if len(tasks) == 0 {
			return p.out.Status("background tasks: none running", streaming.LevelVerbose)
		}
		text := fmt.Sprintf("background tasks: %d running", len(tasks))
		if d := oneLine(tasks[0].Get("description").String()); d != "" {
			text += " (" + d
			if len(tasks) > 1 {
				text += ", …"
			}
			text += ")"
		}
		return p.out.Status(text, streaming.LevelVerbose)
	case "commands_changed":
		// Can be 15 KB of command descriptions: never shown.
		return p.out.Status(fmt.Sprintf("commands changed (%d commands)", countOf(l, l.Get("commands"))), streaming.LevelVerbose)
	}
	// Any other subtype: one line naming it, with its most telling field.
	text := "system " + firstOf(sub, "event")
	for _, k := range []string{"message", "summary", "status", "description"} {
		if s := oneLine(l.Str(k)); s != "" {
			text += ": " + s
			break
		}
	}
	return p.out.Status(text, streaming.LevelInfo)
}

// init starts a run: system/init (Claude, Amp, Qwen) or Qwen's
// system/session_start.
func (p *parser) init(l *parsers.Line, sub string) error {
	if err := p.closeAll(); err != nil {
		return err
	}
	p.newRun()
	sid := l.Str("session_id")
	switch {
	case sub == "session_start" || l.Has("qwen_code_version"):
		p.out.Agent = "qwen"
	case strings.HasPrefix(sid, "T-"):
		p.out.Agent = "amp"
	case l.Has("claude_code_version"):
		p.out.Agent = ""
	}
	names := p.names[:0]
	tv := l.Get("tools")
	names, plain := appendPlainStrings(names, tv)
	for e := elements(l, tv); !plain && e.Next(); {
		var name string
		if e.Raw[0] == '{' {
			name = l.Field(e.Raw, "name").String()
		} else {
			name = textOf(l, e.Raw)
		}
		if name != "" {
			names = append(names, name)
		}
	}
	var tools []string
	if len(names) > 0 {
		tools = names // lent, as the line's strings are: valid during the Push
	}
	p.out.Ev = streaming.Event{Kind: streaming.KindSessionStart, SessionID: sid,
		Model: l.Str("model"), CWD: l.Str("cwd"), Tools: tools}
	err := p.out.Push()
	clear(names)
	p.names = names[:0]
	if err != nil {
		return err
	}
	afterResult := p.afterResult
	p.afterResult = false
	if err := p.sayWhy(afterResult); err != nil {
		return err
	}
	for e := elements(l, l.Get("mcp_servers")); e.Next(); {
		b := readBlock(l, e.Raw)
		name, st := b.str(b.name), b.str(b.status)
		if st == "" || st == "connected" || st == "pending" {
			continue
		}
		if err := p.out.Status("MCP server "+name+": "+st, streaming.LevelWarning); err != nil {
			return err
		}
	}
	return nil
}

// statusFrame handles system/status: compaction and request states.
func (p *parser) statusFrame(l *parsers.Line) error {
	switch st := l.Str("status"); st {
	case "compacting":
		return p.out.Status("compacting context", streaming.LevelInfo)
	case "requesting":
		return p.out.Status("API request", streaming.LevelVerbose)
	case "":
		switch r := l.Str("compact_result"); r {
		case "":
			return nil // status cleared
		case "success":
			return p.out.Status("compaction finished", streaming.LevelInfo)
		default:
			return p.out.Status(joinColon("compaction "+r, l.Str("compact_error")), streaming.LevelWarning)
		}
	default:
		return p.out.Status("status: "+oneLine(st), streaming.LevelInfo)
	}
}

func hookName(l *parsers.Line) string {
	return firstOf(l.Str("hook_name"), l.Str("hook_event"), "hook")
}

func (p *parser) hookResponse(l *parsers.Line) error {
	outcome := firstOf(l.Str("outcome"), "finished")
	text := "hook " + hookName(l) + ": " + outcome
	level := streaming.LevelVerbose // (a hook that did its job is chatter)
	code := l.Get("exit_code")
	if code.Exists() && code.Type == gjson.Number {
		text += " (exit " + strconv.FormatInt(code.Int(), 10) + ")"
	}
	if (outcome != "success" && outcome != "finished") || code.Int() != 0 {
		level = streaming.LevelWarning
		if e := oneLine(l.Str("stderr")); e != "" {
			text += ": " + e
		}
	}
	return p.out.Status(text, level)
}

// retryText is "API retry 2/10 in 4s: overloaded (HTTP 529)".
func retryText(l *parsers.Line) string {
	text := "API retry"
	if a := l.Get("attempt"); a.Exists() {
		text += " " + strconv.FormatInt(a.Int(), 10)
		if m := l.Get("max_retries"); m.Exists() {
			text += "/" + strconv.FormatInt(m.Int(), 10)
		}
	}
	if d := l.Get("retry_delay_ms"); d.Exists() {
		text += " in " + seconds(d.Float()/1000)
	}
	e := l.Get("error")
	msg := e.String()
	if e.IsObject() {
		msg = joinColon(e.Get("type").String(), e.Get("message").String())
	}
	if msg = oneLine(msg); msg != "" {
		text += ": " + msg
	}
	if s := l.Get("error_status"); s.Exists() && s.Type == gjson.Number {
		text += " (HTTP " + strconv.FormatInt(s.Int(), 10) + ")"
	}
	return text
}

// seconds formats a duration in seconds: 4s, 0.6s, 1.5s.
func seconds(s float64) string {
	if s < 0 {
		s = 0
	}
	if s == float64(int64(s)) {
		return strconv.FormatInt(int64(s), 10) + "s"
	}
	return strconv.FormatFloat(s, 'f', 1, 64) + "s"
}

// rateLimit handles a rate_limit_event: one status line, a warning when
// the status is not "allowed".
func (p *parser) rateLimit(l *parsers.Line) error {
	info := l.Get("rate_limit_info")
	st := firstOf(info.Get("status").String(), "unknown")
	text := "rate limit " + st
	var details []string
	if t := info.Get("rateLimitType").String(); t != "" {
		details = append(details, t)
	}
	if u := info.Get("utilization"); u.Exists() && u.Type == gjson.Number {
		v := u.Float()
		if v <= 1 {
			v *= 100
		}
		details = append(details, fmt.Sprintf("%.0f%% used", v))
	}
	if r := info.Get("resetsAt"); r.Type == gjson.Number && r.Int() > 0 {
		details = append(details, "resets "+time.Unix(r.Int(), 0).UTC().Format("Jan 2 15:04 UTC"))
	}
	if len(details) > 0 {
		text += " (" + strings.Join(details, ", ") + ")"
	}
	level := streaming.LevelVerbose // (within limits: chatter)
	if st != "allowed" {
		level = streaming.LevelWarning
	}
	return p.out.Status(text, level)
}

// controlRequest handles the bidirectional protocol's requests: a tool
// permission request is a permission.request, anything else a status.
func (p *parser) controlRequest(l *parsers.Line) error {
	req := l.Get("request")
	sub := req.Get("subtype").String()
	id := l.Str("request_id")
	if sub == "can_use_tool" {
		name := parsers.CleanToolName(req.Get("tool_name").String())
		if len(p.perms) < memoryCap {
			p.perms[strings.Clone(id)] = strings.Clone(name)
		}
		p.out.Ev = streaming.Event{Kind: streaming.KindPermissionRequest, ID: id, Name: name,
			Input: inputOf(req.Get("input"))}
		return p.out.Push()
	}
	return p.out.Status("control request: "+firstOf(sub, "unknown"), streaming.LevelVerbose)
}

// controlResponse answers a control request: the answer to a permission
// request is a permission.response; others are a status line.
func (p *parser) controlResponse(l *parsers.Line) error {
	resp := l.Get("response")
	id := resp.Get("request_id").String()
	sub := resp.Get("subtype").String()
	if name, ok := p.perms[id]; ok {
		delete(p.perms, id)
		choice := resp.Get("response.behavior").String()
		if choice == "" {
			choice = sub
		}
		p.out.Ev = streaming.Event{Kind: streaming.KindPermissionResponse, ID: id, Name: name, Choice: choice}
		return p.out.Push()
	}
	if sub == "error" {
		return p.out.Status(joinColon("control request failed", oneLine(resp.Get("error").String())), streaming.LevelWarning)
	}
	return p.out.Status("control response: "+firstOf(sub, "unknown"), streaming.LevelVerbose)
}

// toolProgress handles heartbeats of long tool calls: shown at most every
// 30 seconds per call.
func (p *parser) toolProgress(l *parsers.Line) error {
	id := l.Str("tool_use_id")
	el := l.Get("elapsed_time_seconds").Int()
	if last, ok := p.progress[id]; ok && el-last < 30 {
		return nil
	}
	if len(p.progress) >= memoryCap {
		clear(p.progress)
	}
	p.progress[strings.Clone(id)] = el
	name := parsers.CleanToolName(firstOf(l.Str("tool_name"), "tool"))
	return p.out.Status(fmt.Sprintf("%s still running (%s)", name, seconds(float64(el))), streaming.LevelVerbose)
}

// conversationReset is /clear in a stream-json session: the conversation
// of session_id ends, and a new init with a new session id follows (its
// new_conversation_id is not that id). The new run says why it began.
func (p *parser) conversationReset(l *parsers.Line) error {
	p.cleared, p.resetSeen = strings.Clone(l.Str("session_id")), true
	return nil
}

// sayCleared says that a run began with /clear: after the new run's
// session.start, or where the reset came when no init follows it.
func (p *parser) sayCleared() error {
	text := "new conversation after /clear"
	if p.cleared != "" {
		text += " (the last session was " + p.cleared + ")"
	}
	p.cleared, p.resetSeen = "", false
	return p.out.Status(text, streaming.LevelInfo)
}

// sayWhy says, after an init, why the run began when it was not a prompt:
// /clear, or a background task's notification after the last result
// (the CLI starts that turn by itself).
func (p *parser) sayWhy(afterResult bool) error {
	note := p.taskNote
	p.taskNote, p.autoSaid, p.origin = "", false, ""
	switch {
	case p.resetSeen:
		p.origin = streaming.OriginClear
		return p.sayCleared()
	case afterResult && note != "":
		p.autoSaid, p.origin = true, streaming.OriginTaskNotification
		return p.out.Status("turn started by a background task's notification ("+note+"), not by a prompt", streaming.LevelInfo)
	}
	return nil
}

func (p *parser) commandLifecycle(l *parsers.Line) error {
	return p.out.Status("command "+firstOf(l.Str("state"), "update"), streaming.LevelVerbose)
}

// appendPlainStrings appends the non-empty strings of v, an array of
// strings without escapes (Claude's tools), as the loop over its
// elements would; false, with dst as it was (and nothing of v left in
// its spare capacity), for anything else.
func appendPlainStrings(dst []string, v gjson.Result) ([]string, bool) {
	if !v.IsArray() {
		return dst, false
	}
	n, s := len(dst), v.Raw
	for i := 1; i < len(s); {
		switch s[i] {
		case ' ', '\t', '\n', '\r', ',':
			i++
		case ']':
			return dst, true
		case '"':
			k := strings.IndexByte(s[i+1:], '"')
			str := s[i+1 : i+1+max(k, 0)]
			if k < 0 || strings.IndexByte(str, '\\') >= 0 {
				clear(dst[n:])
				return dst[:n], false
			}
			if str != "" {
				dst = append(dst, str)
			}
			i += k + 2
		default:
			clear(dst[n:])
			return dst[:n], false
		}
	}
	clear(dst[n:])
	return dst[:n], false
}

// countOf is v.Get("#").Int(): the number of elements of an array (a
// part of l), counted without decoding them.
func countOf(l *parsers.Line, v gjson.Result) int64 {
	if !v.IsArray() {
		return v.Get("#").Int()
	}
	var n int64
	for e := l.ElementsOf(v.Raw); e.Next(); {
		n++
	}
	return n
}

// oneLine clips a text to one short line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " …"
	}
	return parsers.Clip(s, 160)
}

func firstOf(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
