package cline

import (
	"time"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// maxEntries bounds the identities remembered for de-duplication; the
// oldest are forgotten first, so memory stays flat on endless streams.
const maxEntries = 8192

// entry is what the parser remembers of one message identity.
type entry struct {
	hash    uint64 // of the last line printed for it (rule 4: identical re-prints are dropped)
	started bool   // its message or tool call was opened
	done    bool   // handled as complete: later changes are not shown again
	role    string // for say text: user (the prompt echo) or assistant
	api     uint8  // api_req_started: apiNone, apiShown (in progress), apiDone
}

// run is the state of one agent run: from the first message, a Kilo
// welcome, a task_started or a resumption, to its result.
type run struct {
	active   bool  // something happened since the run began
	ended    bool  // a result was emitted
	firstTS  int64 // first message time, for the duration
	requests int   // API requests started
	usage    streaming.Usage
	hasUsage bool
}

// pendingResult is a completion_result whose result event waits for the
// idle ask that follows it: Cline may run a command after the answer
// (attempt_completion's demo command) before it asks.
type pendingResult struct {
	text string
}

type parser struct {
	out    parsers.Out // its Time is the current line's message's, when known
	line   *parsers.Line
	seq    int
	lastTS int64 // latest message time (ms), for durations

	msgs    map[string]*entry
	order   []string // identities in arrival order, for eviction
	firstID string   // the run's first message identity

	started   bool // session.start emitted
	run       run
	pending   *pendingResult
	lastFinal string // text of the last completion_result

	sawPrompt bool // the user's prompt was shown (say task or the prompt echo)
	sawAgent  bool // the agent did something: a later say text is its own

	tool        *openTool
	checkpoints map[string]bool
	lastPlan    string

	sdk sdkState
}

func newParser() *parser {
	return &parser{msgs: make(map[string]*entry), checkpoints: make(map[string]bool)}
}

func (p *parser) Parse(l *parsers.Line, emit parsers.Emit) error {
	p.out.Emit, p.line = emit, l
	p.seq++
	m, ok := readMsg(l, p.seq)
	if !ok {
		return p.other(l)
	}
	p.out.Time = time.Time{}
	if m.ts > 1e11 {
		p.out.Time = time.UnixMilli(m.ts)
		p.lastTS = m.ts
	}
	sum := hashString(l.JSON)
	st := p.msgs[m.id]
	if st != nil && st.hash == sum {
		if m.id != p.firstID || len(p.order) < 2 {
			return nil // a byte-identical re-print (positional re-render)
		}
		// The run's first message again, after others: the log starts
		// over (`cat run.jsonl run.jsonl`). Identity is scoped to a run.
		if err := p.flushPending(); err != nil {
			return err
		}
		p.sawPrompt, p.sawAgent = false, false
		p.forgetIdentities()
		if err := p.startRun(l.Path("modelInfo.modelId").String(), ""); err != nil {
			return err
		}
		st = nil
	}
	isNew := st == nil
	if isNew {
		st = p.remember(m.id)
		if len(p.order) == 1 {
			p.firstID = m.id
		}
	}
	st.hash = sum
	if err := p.boundaries(l, &m, isNew); err != nil {
		return err
	}
	if m.ts > 1e11 && p.run.firstTS == 0 {
		p.run.firstTS = m.ts
	}
	return p.dispatch(&m, st, isNew)
}

// Finish emits the result of a completion_result whose idle ask never came.
func (p *parser) Finish(emit parsers.Emit) error {
	p.out.Emit = emit
	if err := p.flushPending(); err != nil {
		return err
	}
	return p.sdkFinish()
}

// hashString is FNV-1a over s, without copying it.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// forgetIdentities forgets the messages of the last run, when a new task
// begins: the session scopes identity to a run, and so does the parser's
// re-print check.
func (p *parser) forgetIdentities() {
	clear(p.msgs)
	p.order, p.firstID = p.order[:0], ""
}

func (p *parser) remember(id string) *entry {
	if len(p.order) >= maxEntries {
		delete(p.msgs, p.order[0])
		p.order = p.order[1:]
	}
	e := &entry{}
	p.msgs[id] = e
	p.order = append(p.order, id)
	return e
}

// boundaries starts runs, ends the open tool call and flushes a pending
// result before a message is handled.
func (p *parser) boundaries(l *parsers.Line, m *msg, isNew bool) error {
	if !p.started {
		if err := p.startRun(l.Path("modelInfo.modelId").String(), ""); err != nil {
			return err
		}
	}
	if !isNew {
		return nil
	}
	resume := (m.kind == "ask" && (m.sub == "resume_task" || m.sub == "resume_completed_task")) ||
		(m.kind == "cli" && m.sub == "welcome")
	if p.tool != nil && !resume && !p.tool.continues(m) {
		// Cline reports a tool that failed with a say error right after it.
		status := streaming.ToolOK
		if m.kind == "say" && m.sub == "error" {
			status = streaming.ToolError
		}
		if err := p.endTool(status); err != nil {
			return err
		}
	}
	act := activity(m)
	if p.pending != nil && (resume || (act && !completionTail(m))) {
		if err := p.flushPending(); err != nil {
			return err
		}
	}
	if (resume && p.run.active) || (act && p.run.ended) {
		if err := p.startRun(l.Path("modelInfo.modelId").String(), ""); err != nil {
			return err
		}
	}
	if m.kind == "cli" && m.sub == "welcome" {
		// A Kilo run begins: its first say text is the prompt echo again.
		p.sawPrompt, p.sawAgent = false, false
	}
	if act {
		p.run.active = true
		if agentSide(m) {
			p.sawAgent = true
		}
	}
	return nil
}

// startRun begins a run with a session.start.
func (p *parser) startRun(model, session string) error {
	p.started = true
	p.tool = nil // the session closes what is still open as incomplete
	p.pending = nil
	p.run = run{}
	p.out.Ev = streaming.Event{Kind: streaming.KindSessionStart, Model: model, SessionID: session}
	return p.out.Push()
}

// activity reports a message that is part of the agent's work, as opposed
// to bookkeeping around it: after a result, activity begins a new run (the
// user answered the completion, or retried a failed request).
func activity(m *msg) bool {
	switch m.kind {
	case "cli":
		return m.sub == "user" || m.sub == "assistant"
	case "say":
		switch m.sub {
		case "checkpoint_saved", "checkpoint_created", "task_progress", "deleted_api_reqs",
			"api_req_deleted", "api_req_finished", "completion_result":
			return false
		case "text":
			return m.text != "" // Cline leaves empty partial text placeholders
		}
		return true
	case "ask":
		switch m.sub {
		case "completion_result", "api_req_failed", "mistake_limit_reached",
			"auto_approval_max_req_reached", "payment_required_prompt", "invalid_model",
			"resume_task", "resume_completed_task":
			return false
		}
		return true
	}
	return false
}

// agentSide reports activity of the agent rather than of the user: after
// it, a say text is the agent's, not the prompt echo.
func agentSide(m *msg) bool {
	if m.kind == "cli" {
		return m.sub == "assistant"
	}
	switch m.sub {
	case "text", "task", "user_feedback", "user_feedback_diff":
		return false
	}
	return true
}

// completionTail reports the messages Cline may print between the answer
// (say completion_result) and the idle ask: the command it offers to run.
func completionTail(m *msg) bool {
	switch m.sub {
	case "command", "command_output", "shell_integration_warning":
		return true
	}
	return false
}

// dispatch hands a message to its handler.
func (p *parser) dispatch(m *msg, st *entry, isNew bool) error {
	switch m.kind {
	case "cli":
		return p.cliMessage(m, st)
	case "say":
		return p.say(m, st, isNew)
	case "ask":
		return p.ask(m, st, isNew)
	}
	return nil
}

func (p *parser) say(m *msg, st *entry, isNew bool) error {
	switch m.sub {
	case "text":
		return p.sayText(m, st, isNew)
	case "reasoning":
		return p.block(m, st, streaming.KindThinkingDelta, streaming.RoleAssistant, m.text)
	case "completion_result":
		return p.completion(m, st)
	case "task", "user_feedback", "user_feedback_diff", "subtask_result":
		return p.userMessage(m, st)
	case "api_req_started":
		return p.apiRequest(m, st, isNew)
	case "api_req_finished", "api_req_deleted", "deleted_api_reqs", "mcp_server_request_started":
		return nil // bookkeeping: costs are read from api_req_started
	case "api_req_retried", "error_retry", "api_req_retry_delayed", "api_req_rate_limit_wait":
		return p.retry(m, st)
	case "error", "diff_error", "rooignore_error", "clineignore_error", "condense_context_error":
		return p.sayError(m, st)
	case "shell_integration_warning", "too_many_tools_warning", "browser_session_status",
		"load_mcp_documentation", "info":
		return p.notice(m, st)
	case "checkpoint_saved", "checkpoint_created":
		return p.checkpoint(m, st)
	case "task_progress", "user_edit_todos":
		return p.plan(m, st)
	case "condense_context", "sliding_window_truncation":
		return p.context(m, st)
	case "image":
		return p.image(m, st)
	case "mcp_server_response":
		return p.mcpResponse(m, st)
	case "browser_action":
		return p.browserAction(m, st)
	case "browser_action_result":
		return p.browserResult(m, st)
	case "codebase_search_result":
		return p.searchResult(m, st)
	}
	return p.call(m, st)
}

func (p *parser) ask(m *msg, st *entry, isNew bool) error {
	switch m.sub {
	case "followup":
		return p.followup(m, st)
	case "plan_mode_respond", "act_mode_respond":
		return p.planResponse(m, st)
	case "completion_result":
		return p.completionAsk(m, st)
	case "api_req_failed", "mistake_limit_reached", "auto_approval_max_req_reached",
		"payment_required_prompt", "invalid_model":
		return p.failure(m, st)
	case "resume_task", "resume_completed_task":
		return p.resumed(m, st)
	}
	return p.call(m, st)
}

// call handles the messages says and asks both write about a call.
func (p *parser) call(m *msg, st *entry) error {
	switch m.sub {
	case "tool":
		return p.fileTool(m, st)
	case "command":
		return p.command(m, st)
	case "command_output":
		return p.commandOutput(m, st)
	case "use_mcp_server":
		return p.mcpRequest(m, st)
	case "browser_action_launch":
		return p.browserLaunch(m, st)
	}
	return p.unknown(m, st)
}

// once reports whether a message that is shown only when complete should
// be handled now, and marks it handled.
func once(m *msg, st *entry) bool {
	if m.partial || st.done {
		return false
	}
	st.done = true
	return true
}

// unknown keeps a message of a subtype the parser does not know, once it
// is complete.
func (p *parser) unknown(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	return p.out.Unknown(m.kind+":"+m.sub, p.line.JSON)
}
