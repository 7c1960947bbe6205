package codex

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Rollout files (~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl) are the
// session files Codex writes for every thread: the envelope
// {timestamp, type, payload} (session_meta, response_item, event_msg,
// turn_context, compacted) and, before it, a bare layout (a meta line
// {id, timestamp, instructions}, then bare response items and
// {"record_type":"state"}). See shared/formats/codex-rollout.md.
//
// Everything the user sees is written twice: response_item holds the
// model's words and tool calls, event_msg the same words again
// (agent_message, agent_reasoning, user_message) with the turn
// boundaries, token counts and aborts. The reader takes the words and
// calls from response_item and only the rest from event_msg; the one
// exception is the user's prompt, which event_msg has without the
// injected context.

// detectRollout scores a line: an envelope line of a rollout type, or the
// bare layout's meta line, is decisive (no other agent writes them).
func detectRollout(l *parsers.Line) parsers.Confidence {
	if t := l.Str("type"); t != "" {
		if rolloutTypes[t] && l.Get("payload").IsObject() && l.Has("timestamp") {
			return parsers.Decisive
		}
		return parsers.No
	}
	if l.Has("record_type") && len(l.JSON) < 200 {
		return parsers.Maybe
	}
	if l.Has("id") && l.Has("timestamp") && l.Has("instructions") && !l.Has("msg") {
		return parsers.Decisive
	}
	return parsers.No
}

// rollout is the state of one rollout file: no text, only where the
// current turn stands.
type rollout struct {
	o         parsers.Out
	envelope  bool     // the file has envelope lines (its prompts come as user_message)
	turns     int      // turns begun
	open      []string // tool calls started and not ended, in start order
	answered  bool     // the last words of the turn were the assistant's, no call pending
	active    bool     // the current turn has content no result has closed
	usage     *streaming.Usage
	planCalls map[string]bool // update_plan calls: their output is not shown
	sid, cwd  string          // the session, for the start of later turns
	resulted  bool            // a result closed a turn of the current run
	begun     bool            // task_started began the current turn (its prompt follows)
}

// started reports a turn begun by task_started whose prompt is still to
// come; a prompt otherwise begins a turn of its own.
func (r *rollout) started() bool {
	b := r.begun
	r.begun = false
	return b
}

func newRollout() *rollout {
	return &rollout{planCalls: map[string]bool{}}
}

func (r *rollout) Parse(l *parsers.Line, emit parsers.Emit) error {
	r.o.Emit = emit
	t := l.Str("type")
	p := l.Get("payload")
	if p.IsObject() && rolloutTypes[t] {
		r.envelope = true
		switch t {
		case "session_meta":
			return r.meta(p)
		case "response_item":
			return r.responseItem(l, p)
		case "event_msg":
			return r.eventMsg(l, p)
		case "compacted":
			msg := "context compacted"
			if m := strings.TrimSpace(p.Get("message").String()); m != "" && !strings.HasPrefix(m, "[REDACTED") {
				msg += ": " + parsers.Clip(m, 200)
			}
			return r.o.Status(msg, streaming.LevelInfo)
		}
		return nil // turn_context: the model and sandbox of each request
	}
	if t == "" {
		if l.Has("record_type") {
			return nil
		}
		if l.Has("instructions") && l.Has("id") {
			return r.meta(gjson.Parse(l.JSON))
		}
		return r.o.Unknown(firstKey(l), l.JSON)
	}
	// The bare layout: a response item on its own.
	return r.responseItem(l, gjson.Parse(l.JSON))
}

// firstKey names a line by its first key.
func firstKey(l *parsers.Line) string {
	k := ""
	gjson.Parse(l.JSON).ForEach(func(key, _ gjson.Result) bool {
		k = key.Str
		return false
	})
	return k
}

func (r *rollout) meta(p gjson.Result) error {
	r.turns, r.usage, r.answered, r.active = 0, nil, false, false
	r.open = r.open[:0]
	r.sid, r.cwd = strings.Clone(p.Get("id").String()), strings.Clone(p.Get("cwd").String())
	return r.start()
}

// start sends a session.start: at the meta line, and before a turn that
// follows a finished one (a run per turn, as `codex exec` resume does),
// so that each turn's outcome is its own.
func (r *rollout) start() error {
	r.resulted, r.turns = false, 0
	ev := r.o.New(streaming.KindSessionStart)
	ev.SessionID, ev.CWD = r.sid, r.cwd
	return r.o.Push()
}

// newTurn begins a turn.
func (r *rollout) newTurn() error {
	if err := r.closeTurn(); err != nil {
		return err
	}
	if r.resulted {
		if err := r.start(); err != nil {
			return err
		}
	}
	r.turns++
	r.active, r.answered = true, false
	return nil
}

// id is the event id of a line's item: its own id, else its line.
func lineID(prefix string, p gjson.Result, n int) string {
	if id := p.Get("id").String(); id != "" {
		return id
	}
	return parsers.LineID(prefix, n)
}

func (r *rollout) responseItem(l *parsers.Line, p gjson.Result) error {
	switch typ := p.Get("type").String(); typ {
	case "message":
		role := p.Get("role").String()
		text := contentText(p.Get("content"))
		switch role {
		case "assistant":
			r.turnActive()
			r.answered = len(r.open) == 0
			return r.o.Message(parsers.Msg{ID: lineID("msg", p, l.N), Role: streaming.RoleAssistant}, streaming.KindTextDelta, text)
		case "user":
			if r.envelope || injected(text) {
				return nil // the prompt comes as event_msg user_message; the rest is injected context
			}
			return r.prompt(l, text)
		}
		return nil // developer and system instructions
	case "reasoning":
		var parts []string
		p.Get("summary").ForEach(func(_, s gjson.Result) bool {
			if t := s.Get("text").String(); t != "" {
				parts = append(parts, t)
			}
			return true
		})
		if len(parts) == 0 {
			p.Get("content").ForEach(func(_, s gjson.Result) bool {
				if t := s.Get("text").String(); t != "" {
					parts = append(parts, t)
				}
				return true
			})
		}
		r.turnActive()
		return r.o.Message(parsers.Msg{ID: lineID("rs", p, l.N), Role: streaming.RoleAssistant}, streaming.KindThinkingDelta, strings.Join(parts, "\n\n"))
	case "function_call", "custom_tool_call", "local_shell_call":
		return r.call(l, typ, p)
	case "function_call_output", "custom_tool_call_output":
		return r.callOutput(p)
	case "web_search_call":
		id := lineID("ws", p, l.N)
		ev := r.o.New(streaming.KindToolStart)
		ev.ID, ev.Name = id, nameWebSearch
		q := p.Get("action.query").String()
		if u := p.Get("action.url").String(); q == "" && u != "" {
			q = u
		}
		ev.Title = q
		if q != "" {
			ev.Input = jsonObject("query", jsonString(q))
		}
		if err := r.o.Push(); err != nil {
			return err
		}
		end := r.o.New(streaming.KindToolEnd)
		end.ID, end.Status = id, toolStatus(p.Get("status").String(), streaming.ToolOK)
		r.turnActive()
		return r.o.Push()
	}
	return nil // encrypted compaction items, ghost snapshots, …
}

// injected reports the context Codex adds as user messages: environment,
// IDE context, instructions, AGENTS.md.
func injected(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "<") || strings.HasPrefix(t, "# Context from my IDE") ||
		strings.HasPrefix(t, "# AGENTS.md")
}

// contentText joins the text parts of a Responses message.
func contentText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var parts []string
	c.ForEach(func(_, v gjson.Result) bool {
		switch v.Get("type").String() {
		case "input_text", "output_text", "text":
			parts = append(parts, v.Get("text").String())
		case "input_image":
			parts = append(parts, "‹image›")
		}
		return true
	})
	return strings.Join(parts, "\n")
}

// request is what the user asked: the IDE extension puts its context
// (active file, open tabs) before "## My request for Codex:".
func request(msg string) string {
	const mark = "## My request for Codex:"
	if strings.HasPrefix(msg, "# Context from my IDE setup:") {
		if i := strings.Index(msg, mark); i >= 0 {
			return strings.TrimSpace(msg[i+len(mark):])
		}
	}
	return msg
}

// prompt starts a turn with the user's words.
func (r *rollout) prompt(l *parsers.Line, text string) error {
	if !r.started() {
		if err := r.newTurn(); err != nil {
			return err
		}
	}
	return r.o.Message(parsers.Msg{ID: parsers.LineID("user", l.N), Role: streaming.RoleUser}, streaming.KindTextDelta, text)
}

func (r *rollout) turnActive() {
	r.active = true
	r.answered = false
}

// closeTurn ends a turn that had no terminal event (files before
// task_complete existed) when the next one begins: it finished if the
// assistant had the last word.
func (r *rollout) closeTurn() error {
	if !r.active || !r.answered || len(r.open) > 0 {
		return nil
	}
	return r.result(true, "")
}

func (r *rollout) result(ok bool, reason string) error {
	r.active, r.answered, r.begun, r.resulted = false, false, false, true
	// Calls the turn left open (an abort) end with it.
	for _, id := range r.open {
		ev := r.o.New(streaming.KindToolEnd)
		ev.ID, ev.Status = id, streaming.ToolIncomplete
		if err := r.o.Push(); err != nil {
			return err
		}
	}
	r.open = r.open[:0]
	ev := r.o.New(streaming.KindResult)
	ev.OK, ev.Reason, ev.Turns = ok, reason, max(r.turns, 1)
	if r.usage != nil {
		u := *r.usage
		ev.Usage = &u
	}
	return r.o.Push()
}

// call starts a tool call.
func (r *rollout) call(l *parsers.Line, typ string, p gjson.Result) error {
	id := p.Get("call_id").String()
	if id == "" {
		id = lineID("call", p, l.N)
	}
	name := p.Get("name").String()
	ev := r.o.New(streaming.KindToolStart)
	ev.ID = id
	var args gjson.Result
	switch typ {
	case "function_call":
		a := p.Get("arguments")
		if a.Type == gjson.String {
			args = gjson.Parse(a.Str)
		} else {
			args = a
		}
	case "custom_tool_call":
		args = p.Get("input")
	case "local_shell_call":
		name = "shell"
		args = p.Get("action")
	}
	switch name {
	case "shell", "container.exec", "exec_command", "local_shell":
		ev.Name = nameShell
		cmd := args.Get("command")
		if !cmd.Exists() {
			cmd = args.Get("cmd")
		}
		ev.Title = cmd.String()
		if cmd.IsArray() {
			ev.Title = commandLine(cmd.Array())
		}
		wd := args.Get("workdir").String()
		if wd == "" {
			wd = args.Get("working_directory").String()
		}
		if ev.Title == "" {
			ev.Title = parsers.Clip(p.Get("arguments").String(), 80) // not JSON (a redacted copy)
		}
		ev.Input = jsonObject("command", jsonString(ev.Title), "cwd", quoted(wd))
	case "apply_patch":
		ev.Name = namePatch
		patch := args.String()
		if args.IsObject() {
			patch = args.Get("input").String()
		}
		ev.Edits = patchEdits(patch)
		if len(ev.Edits) > 0 {
			ev.Title = ev.Edits[0].Op + " " + ev.Edits[0].Path
			if n := len(ev.Edits); n > 1 {
				ev.Title += " (+" + itoa(n-1) + " more)"
			}
		}
		ev.Input = jsonObject("patch", jsonString(patch))
	default:
		ev.Name = parsers.CleanToolName(name)
		if ev.Name == "" {
			ev.Name = typ
		}
		if args.IsObject() || args.IsArray() {
			ev.Input = args.Raw
		} else if args.Exists() {
			ev.Input = jsonString(args.String())
		}
	}
	r.turnActive()
	if name == "update_plan" {
		// The plan is the call's whole point: shown as a plan, not a call.
		r.planCalls[strings.Clone(id)] = true
		pl := r.o.New(streaming.KindPlan)
		args.Get("plan").ForEach(func(_, s gjson.Result) bool {
			pl.Entries = append(pl.Entries, streaming.PlanEntry{Text: s.Get("step").String(), Status: parsers.PlanStatus(s.Get("status").String())})
			return true
		})
		return r.o.Push()
	}
	r.open = append(r.open, strings.Clone(id))
	return r.o.Push()
}

// commandLine shows an argv: the script of `bash -lc SCRIPT`, else the
// words joined as a shell would read them.
func commandLine(argv []gjson.Result) string {
	if len(argv) == 3 && (argv[1].String() == "-lc" || argv[1].String() == "-c") {
		return argv[2].String()
	}
	return shellJoin(argv)
}

// callOutput ends a tool call with its output.
func (r *rollout) callOutput(p gjson.Result) error {
	id := p.Get("call_id").String()
	if r.planCalls[id] {
		delete(r.planCalls, id)
		return nil
	}
	ev := r.o.New(streaming.KindToolEnd)
	ev.ID = id
	ev.Status = streaming.ToolOK
	o := p.Get("output")
	text := o.String()
	if o.IsObject() {
		text = contentText(o.Get("content"))
		if text == "" {
			text = contentText(o.Get("content_items"))
		}
	} else if strings.HasPrefix(strings.TrimSpace(text), "{") {
		// {"output":"…","metadata":{"exit_code":0,"duration_seconds":0.1}}
		if j := gjson.Parse(text); j.Get("output").Exists() {
			text = j.Get("output").String()
			ev.ExitCode = parsers.IntOrNil(j.Get("metadata.exit_code"))
			ev.DurationMS = int64(j.Get("metadata.duration_seconds").Float() * 1000)
		}
	}
	if ev.ExitCode == nil {
		ev.ExitCode = exitLine(text)
	}
	if ev.ExitCode != nil && *ev.ExitCode != 0 {
		ev.Status = streaming.ToolError
	}
	ev.Output = cleanOutput(execBody(text))
	for i, o := range r.open {
		if o == id {
			r.open = append(r.open[:i], r.open[i+1:]...)
			break
		}
	}
	r.answered = false
	r.active = true
	return r.o.Push()
}

// execBody is the output of an exec_command result without the header
// Codex puts before it (Chunk ID, Wall time, exit code, token count).
func execBody(text string) string {
	if !strings.HasPrefix(text, "Chunk ID:") && !strings.HasPrefix(text, "Wall time:") {
		return text
	}
	if i := strings.Index(text, "\nOutput:\n"); i >= 0 && i < 512 {
		return text[i+len("\nOutput:\n"):]
	}
	return text
}

// exitLine reads "Process exited with code N" from an exec_command
// output (0.104 and later).
func exitLine(text string) *int {
	const mark = "Process exited with code "
	i := strings.Index(text, mark)
	if i < 0 || i > 512 {
		return nil
	}
	rest := text[i+len(mark):]
	j := 0
	for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || j == 0 && rest[j] == '-') {
		j++
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil {
		return nil
	}
	return &n
}

func (r *rollout) eventMsg(l *parsers.Line, p gjson.Result) error {
	switch p.Get("type").String() {
	case "user_message":
		return r.prompt(l, request(p.Get("message").String()))
	case "task_started", "turn_started":
		if err := r.newTurn(); err != nil {
			return err
		}
		r.begun = true
		return nil
	case "task_complete", "turn_complete":
		if msg := p.Get("error.message").String(); msg != "" {
			e := r.o.New(streaming.KindError)
			e.Text, e.Fatal = errorText(msg), true
			if err := r.o.Push(); err != nil {
				return err
			}
			return r.result(false, errorText(msg))
		}
		return r.result(true, "")
	case "turn_aborted":
		reason := p.Get("reason").String()
		if reason == "" {
			reason = "aborted"
		}
		return r.result(false, reason)
	case "token_count":
		t := p.Get("info.total_token_usage")
		if !t.IsObject() {
			return nil
		}
		// Cumulative for the thread: passed on as it is, never added up.
		r.usage = usageOf(t)
		ev := r.o.New(streaming.KindUsage)
		u := *r.usage
		ev.Usage = &u
		return r.o.Push()
	case "error":
		ev := r.o.New(streaming.KindError)
		ev.Text, ev.Level = errorText(p.Get("message").String()), streaming.LevelWarning
		return r.o.Push()
	case "thread_rolled_back":
		return r.o.Status("rolled back "+p.Get("num_turns").String()+" turn(s)", streaming.LevelInfo)
	case "entered_review_mode", "exited_review_mode":
		return r.o.Status(strings.ReplaceAll(p.Get("type").String(), "_", " "), streaming.LevelInfo)
	}
	// agent_message, agent_reasoning: the words response_item holds;
	// *_end events: the calls it holds; context_compacted follows the
	// compacted line.
	return nil
}

// Finish ends the file: a last turn without a terminal event finished if
// the assistant had the last word; else it is left open (exit 3).
func (r *rollout) Finish(emit parsers.Emit) error {
	r.o.Emit = emit
	return r.closeTurn()
}
