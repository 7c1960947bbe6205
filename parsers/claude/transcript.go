package claude

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Claude Code's session transcripts (~/.claude/projects/<dir>/<session>.jsonl
// and the subagent files beside them) hold the same Anthropic messages as
// stream-json, one record per content block, in an envelope of camelCase
// keys (sessionId, parentUuid, isSidechain, uuid, timestamp), with
// bookkeeping records and no result line. See
// shared/formats/claude-transcript.md. The transcript reader keeps no
// text: only which message is being written, which tool calls are open,
// and where the last turn stands (for the exit status: a turn finished
// when the assistant had the last word, failed on an API error or an
// interruption, and is still running otherwise).

// bookkeeping are the transcript's record types outside the conversation.
var bookkeeping = map[string]bool{
	"summary": true, "file-history-snapshot": true, "queue-operation": true, "last-prompt": true,
	"pr-link": true, "custom-title": true, "ai-title": true, "agent-name": true, "tag": true,
	"mode": true, "permission-mode": true, "worktree-state": true, "progress": true, "attachment": true,
}

// detectTranscript scores a line: the envelope (sessionId with parentUuid
// or isSidechain; stream-json says session_id) or a bookkeeping record
// with its own keys is decisive.
func detectTranscript(l *parsers.Line) parsers.Confidence {
	if l.Has("session_id") {
		return parsers.No
	}
	t := l.Str("type")
	if l.Has("sessionId") && (l.Has("parentUuid") || l.Has("isSidechain")) {
		if t != "" {
			return parsers.Decisive
		}
		return parsers.No
	}
	if bookkeeping[t] && (l.Has("leafUuid") || l.Has("messageId") || l.Has("sessionId") || l.Has("uuid")) {
		return parsers.Decisive
	}
	return parsers.No
}

// transcript is the state of one transcript file.
type transcript struct {
	out parsers.Out

	sid, cwd string // the session, for the start of later turns
	started  bool   // a session.start was sent
	resulted bool   // a result closed a turn of the current run
	turns    int

	msg   string // the assistant message being written, and its blocks so far
	msgP  string // its parent
	block int

	open  map[string]bool // tool calls started and not ended
	tasks []string        // open Task/Agent calls, newest last: the parent of inline sidechains

	warmup bool // a subagent's "Warmup" pre-run: its canned reply is hidden

	active   bool   // the current turn has records no result has closed
	answered bool   // the assistant had the last word, no call pending
	failed   string // why the current turn failed (API error, interruption)
}

func newTranscript() *transcript { return &transcript{open: map[string]bool{}} }

func (t *transcript) Parse(l *parsers.Line, emit parsers.Emit) error {
	t.out.Emit = emit
	return t.record(gjson.Parse(l.JSON), l.N, "")
}

// record handles one record; parent is the Task call a mirrored subagent
// record (progress/agent_progress) belongs to.
func (t *transcript) record(r gjson.Result, n int, parent string) error {
	typ := r.Get("type").String()
	if t.started && t.turns > 0 && parent == "" && typ == "user" && isRoot(r) {
		// The file starts over (one transcript twice, or two
		// concatenated): a new run, where the session scopes identity.
		if err := t.restart(); err != nil {
			return err
		}
	}
	if !t.started && r.Get("sessionId").Exists() && (typ == "user" || typ == "assistant" || typ == "system") {
		t.sid = strings.Clone(r.Get("sessionId").String())
		t.cwd = strings.Clone(r.Get("cwd").String())
		if err := t.start(); err != nil {
			return err
		}
	}
	if parent == "" && r.Get("isSidechain").Bool() && len(t.tasks) > 0 {
		parent = t.tasks[len(t.tasks)-1]
	}
	switch typ {
	case "assistant":
		return t.assistant(r, n, parent)
	case "user":
		return t.user(r, n, parent)
	case "system":
		return t.system(r)
	case "progress":
		if r.Get("data.type").String() == "agent_progress" {
			if m := r.Get("data.message"); m.IsObject() {
				p := r.Get("parentToolUseID").String()
				if p == "" {
					p = parent
				}
				return t.record(m, n, p)
			}
		}
		return nil // hook, bash, search progress: what the results say again
	}
	if bookkeeping[typ] {
		return nil
	}
	return t.out.Unknown(typ, r.Raw)
}

// isRoot reports whether r is the first record of a conversation: on the
// main chain, with a null parentUuid (a sidechain's first record and a
// compaction boundary have one too, but are not main-chain user records).
func isRoot(r gjson.Result) bool {
	p := r.Get("parentUuid")
	return p.Exists() && p.Type == gjson.Null && !r.Get("isSidechain").Bool()
}

// restart ends the run the file held so far (its finished turn gets its
// result; what is left open the session ends as incomplete) and forgets
// its calls, so that the next record begins a run.
func (t *transcript) restart() error {
	if err := t.closeTurn(); err != nil {
		return err
	}
	if err := t.stopMsg(); err != nil {
		return err
	}
	clear(t.open)
	t.tasks = t.tasks[:0]
	t.started, t.warmup = false, false
	t.active, t.answered, t.failed = false, false, ""
	return nil
}

func (t *transcript) start() error {
	t.started, t.resulted, t.turns = true, false, 0
	ev := t.out.New(streaming.KindSessionStart)
	ev.SessionID, ev.CWD = t.sid, t.cwd
	return t.out.Push()
}

// stopMsg ends the assistant message being written.
func (t *transcript) stopMsg() error {
	if t.msg == "" {
		return nil
	}
	m := parsers.Msg{ID: t.msg, Role: streaming.RoleAssistant, Parent: t.msgP}
	t.msg, t.msgP = "", ""
	return t.out.Stop(m)
}

func (t *transcript) assistant(r gjson.Result, n int, parent string) error {
	if t.warmup && r.Get("isSidechain").Bool() {
		return nil
	}
	m := r.Get("message")
	id := m.Get("id").String()
	if id == "" {
		id = parsers.LineID("msg", n)
	}
	if id != t.msg {
		if err := t.stopMsg(); err != nil {
			return err
		}
		t.msg, t.msgP, t.block = strings.Clone(id), strings.Clone(parent), 0
		if err := t.out.Start(parsers.Msg{ID: t.msg, Role: streaming.RoleAssistant, Parent: t.msgP}); err != nil {
			return err
		}
	}
	apiErr := r.Get("isApiErrorMessage").Bool()
	var err error
	m.Get("content").ForEach(func(_, b gjson.Result) bool {
		err = t.block1(b, parent, apiErr)
		return err == nil
	})
	if err == nil && m.Get("content").Type == gjson.String {
		err = t.text(streaming.KindTextDelta, m.Get("content").Str, parent)
	}
	return err
}

// block1 handles one content block of an assistant record.
func (t *transcript) block1(b gjson.Result, parent string, apiErr bool) error {
	switch b.Get("type").String() {
	case "text":
		text := b.Get("text").String()
		if apiErr {
			ev := t.out.New(streaming.KindError)
			ev.Text = text
			if parent == "" {
				t.active, t.answered, t.failed = true, false, text
			}
			return t.out.Push()
		}
		if strings.TrimSpace(text) == "" {
			return nil
		}
		if parent == "" {
			t.active, t.failed = true, ""
			t.answered = len(t.open) == 0
		}
		return t.text(streaming.KindTextDelta, text, parent)
	case "thinking":
		return t.text(streaming.KindThinkingDelta, b.Get("thinking").String(), parent)
	case "redacted_thinking":
		return t.text(streaming.KindThinkingDelta, "‹redacted thinking›", parent)
	case "tool_use", "server_tool_use":
		id := b.Get("id").String()
		ev := t.out.New(streaming.KindToolStart)
		ev.ID, ev.Parent = id, parent
		ev.Name = parsers.CleanToolName(b.Get("name").String())
		ev.Input = parsers.JSONText(b.Get("input"))
		if d := b.Get("input.description").String(); d != "" {
			ev.Title = d
		}
		t.open[strings.Clone(id)] = true
		if ev.Name == "Task" || ev.Name == "Agent" {
			t.tasks = append(t.tasks, strings.Clone(id))
		}
		if parent == "" {
			t.active, t.answered = true, false
		}
		return t.out.Push()
	case "web_search_tool_result":
		return t.toolEnd(b.Get("tool_use_id").String(), "", parent, streaming.ToolOK)
	}
	return nil
}

// text sends one block of the current message, whole.
func (t *transcript) text(kind streaming.Kind, text, parent string) error {
	if text == "" {
		return nil
	}
	t.block++
	return t.out.Text(parsers.Msg{ID: t.msg, Role: streaming.RoleAssistant, Parent: parent}, kind, t.block-1, text, streaming.Final)
}

func (t *transcript) user(r gjson.Result, n int, parent string) error {
	c := r.Get("message.content")
	if c.Type == gjson.String {
		return t.userText(r, n, c.Str, parent)
	}
	var texts []string
	var err error
	c.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").String() {
		case "tool_result":
			err = t.toolResult(b, r, parent)
		case "text":
			texts = append(texts, b.Get("text").String())
		case "image":
			texts = append(texts, parsers.ImageSummary(b.Get("source.media_type").String(), len(b.Get("source.data").Str)))
		}
		return err == nil
	})
	if err != nil || len(texts) == 0 {
		return err
	}
	return t.userText(r, n, strings.Join(texts, "\n"), parent)
}

// userText handles the words of a user record: a prompt, a slash command
// and its output, an interruption, a compaction summary.
func (t *transcript) userText(r gjson.Result, n int, text, parent string) error {
	trim := strings.TrimSpace(text)
	switch {
	case r.Get("isMeta").Bool() || trim == "":
		return nil
	case r.Get("isCompactSummary").Bool():
		return t.out.Status("summary of the earlier conversation: "+parsers.Clip(firstLine(trim), 120), streaming.LevelInfo)
	case strings.HasPrefix(trim, "[Request interrupted by user"):
		if parent == "" {
			t.active, t.answered, t.failed = true, false, "interrupted by the user"
		}
		return t.out.Status("interrupted by the user", streaming.LevelWarning)
	case strings.HasPrefix(trim, "<command-name>"), strings.HasPrefix(trim, "<command-message>"):
		return t.out.Status(commandLine(trim), streaming.LevelInfo)
	case strings.HasPrefix(trim, "<local-command-stdout>"), strings.HasPrefix(trim, "<local-command-stderr>"),
		strings.HasPrefix(trim, "<bash-input>"), strings.HasPrefix(trim, "<bash-stdout>"), strings.HasPrefix(trim, "<bash-stderr>"):
		return t.out.Status(stripTags(trim), streaming.LevelInfo)
	}
	side := r.Get("isSidechain").Bool()
	t.warmup = side && trim == "Warmup"
	if t.warmup || side && parent != "" {
		// A pre-warm of an Explore agent (2.0.x), or a subagent's task
		// (the Task call's input says it).
		return nil
	}
	if parent == "" {
		if err := t.newTurn(); err != nil {
			return err
		}
	}
	id := r.Get("uuid").String()
	if id == "" {
		id = parsers.LineID("user", n)
	}
	return t.out.Message(parsers.Msg{ID: id, Role: streaming.RoleUser, Parent: parent}, streaming.KindTextDelta, text)
}

// firstLine is the first line of s.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// commandLine shows a slash command record: "/model opus".
func commandLine(s string) string {
	name := between(s, "<command-name>", "</command-name>")
	args := between(s, "<command-args>", "</command-args>")
	if name == "" {
		name = "/" + between(s, "<command-message>", "</command-message>")
	}
	return strings.TrimSpace(name + " " + args)
}

func between(s, open, close string) string {
	i := strings.Index(s, open)
	if i < 0 {
		return ""
	}
	s = s[i+len(open):]
	if j := strings.Index(s, close); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(s)
}

// stripTags removes the XML-ish tags of local command records.
func stripTags(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			break
		}
		j := strings.IndexByte(s[i:], '>')
		tag := ""
		if j > 0 {
			tag = s[i+1 : i+j]
		}
		if j < 0 || !isTag(tag) {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		s = s[i+j+1:]
	}
	return strings.TrimSpace(stripSGR(b.String()))
}

// stripSGR removes the colour sequences (ESC [ … m) local command output
// carries.
func stripSGR(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isTag(t string) bool {
	t = strings.TrimPrefix(t, "/")
	switch t {
	case "local-command-stdout", "local-command-stderr", "bash-input", "bash-stdout", "bash-stderr", "command-name", "command-message", "command-args":
		return true
	}
	return false
}

func (t *transcript) toolResult(b, r gjson.Result, parent string) error {
	out := resultOutput(b.Get("content"))
	st := streaming.ToolOK
	if b.Get("is_error").Bool() {
		st = streaming.ToolError
		if tr := r.Get("toolUseResult"); strings.Contains(out, "doesn't want to proceed") ||
			tr.Type == gjson.String && strings.Contains(tr.Str, "rejected") {
			st = streaming.ToolDeclined
		}
	}
	return t.toolEnd(b.Get("tool_use_id").String(), out, parent, st)
}

func (t *transcript) toolEnd(id, out, parent string, st streaming.ToolStatus) error {
	if t.msg != "" && t.msgP == id {
		// A subagent's last message ends with its Task call.
		if err := t.stopMsg(); err != nil {
			return err
		}
	}
	ev := t.out.New(streaming.KindToolEnd)
	ev.ID, ev.Output, ev.Parent, ev.Status = id, out, parent, st
	ev.Display = display(out)
	delete(t.open, id)
	for i, k := range t.tasks {
		if k == id {
			t.tasks = append(t.tasks[:i], t.tasks[i+1:]...)
			break
		}
	}
	if parent == "" {
		t.active, t.answered = true, false
	}
	return t.out.Push()
}

// resultOutput is a tool_result's content as text: a string, or its text
// blocks (images summarised).
func resultOutput(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var parts []string
	c.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").String() {
		case "text":
			parts = append(parts, b.Get("text").String())
		case "image":
			parts = append(parts, parsers.ImageSummary(b.Get("source.media_type").String(), len(b.Get("source.data").Str)))
		}
		return true
	})
	return strings.Join(parts, "\n")
}

func (t *transcript) system(r gjson.Result) error {
	switch r.Get("subtype").String() {
	case "compact_boundary":
		msg := "conversation compacted"
		if tr := r.Get("compactMetadata.trigger").String(); tr != "" {
			msg += " (" + tr
			if n := r.Get("compactMetadata.preTokens").Int(); n > 0 {
				msg += ", " + strconv.FormatInt(n, 10) + " tokens before"
			}
			msg += ")"
		}
		return t.out.Status(msg, streaming.LevelInfo)
	case "microcompact_boundary":
		return t.out.Status("context microcompacted", streaming.LevelInfo)
	case "turn_duration":
		return t.closeTurn()
	case "api_error":
		msg := "API error"
		if a := r.Get("retryAttempt"); a.Exists() {
			msg += ", retry " + a.String() + "/" + r.Get("maxRetries").String()
		}
		return t.out.Status(msg, streaming.LevelWarning)
	case "local_command":
		c := r.Get("content").String()
		if strings.Contains(c, "<command-name>") {
			return t.out.Status(commandLine(c), streaming.LevelInfo)
		}
		return t.out.Status(stripTags(c), streaming.LevelInfo)
	case "stop_hook_summary":
		return nil
	}
	level := streaming.LevelInfo
	if r.Get("level").String() == "error" || r.Get("level").String() == "warning" {
		level = streaming.LevelWarning
	}
	return t.out.Status(r.Get("content").String(), level)
}

// newTurn begins a turn at a typed prompt: the turn before it ends.
func (t *transcript) newTurn() error {
	if err := t.closeTurn(); err != nil {
		return err
	}
	if t.resulted {
		if err := t.start(); err != nil {
			return err
		}
	}
	t.turns++
	t.active, t.answered, t.failed = true, false, ""
	return nil
}

// closeTurn ends the current turn with a result when it finished (the
// assistant had the last word) or failed; a turn still running is left
// open.
func (t *transcript) closeTurn() error {
	if !t.active {
		return nil
	}
	ok := t.failed == "" && t.answered && len(t.open) == 0
	if !ok && t.failed == "" {
		return nil
	}
	if err := t.stopMsg(); err != nil {
		return err
	}
	t.active, t.resulted = false, true
	ev := t.out.New(streaming.KindResult)
	ev.OK, ev.Reason, ev.Turns = ok, t.failed, max(t.turns, 1)
	return t.out.Push()
}

// Finish ends the file: the last turn's outcome, if it has one.
func (t *transcript) Finish(emit parsers.Emit) error {
	t.out.Emit = emit
	return t.closeTurn()
}
