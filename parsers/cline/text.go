package cline

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// changesFlag is the marker Cline appends to a completion_result text when
// the task changed files (COMPLETION_RESULT_CHANGES_FLAG); its UI strips it.
const changesFlag = "HAS_CHANGES"

// commandApprovalFlag is the marker Cline appends to an ask command's text
// when the command needs approval (COMMAND_REQ_APP_STRING).
const commandApprovalFlag = "REQ_APP"

// block shows a text or thinking message: a snapshot while it is partial,
// final when complete, so the session shows each character once.
func (p *parser) block(m *msg, st *entry, kind streaming.Kind, role, text string) error {
	if st.done {
		return nil // complete and shown: a later rewrite is not shown again
	}
	if !st.started {
		if text == "" {
			// Nothing to show yet (Kilo omits content of an empty partial).
			st.done = m.complete()
			return nil
		}
		st.started = true
		if err := p.out.Start(parsers.Msg{ID: m.id, Role: role}); err != nil {
			return err
		}
	}
	p.out.Ev = streaming.Event{Kind: kind, Message: m.id, Role: role, Text: text}
	mode := streaming.Snapshot
	if m.complete() {
		mode = streaming.Final
	}
	if err := p.out.Send(mode); err != nil {
		return err
	}
	if !m.complete() {
		return nil
	}
	st.done = true
	return p.out.Stop(parsers.Msg{ID: m.id, Role: role})
}

// sayText is assistant text, except the first say text of a task: Cline
// and Kilo echo the user's prompt as a say text before the agent starts.
func (p *parser) sayText(m *msg, st *entry, isNew bool) error {
	if st.role == "" && m.text != "" {
		st.role = streaming.RoleAssistant
		if !p.sawPrompt && !p.sawAgent {
			st.role = streaming.RoleUser
			p.sawPrompt = true
		}
	}
	role := st.role
	if role == "" {
		role = streaming.RoleAssistant
	}
	return p.block(m, st, streaming.KindTextDelta, role, m.text)
}

// userMessage shows what the user said: the task, feedback after a
// completion, a Kilo CLI user message. Images are summarised.
func (p *parser) userMessage(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	if m.sub == "task" {
		p.sawPrompt = true
	}
	text := m.text
	if imgs := imageSummaries(p.line); imgs != "" {
		if text != "" {
			text += "\n"
		}
		text += imgs
	}
	if text == "" {
		return nil
	}
	return p.out.Message(parsers.Msg{ID: m.id, Role: streaming.RoleUser}, streaming.KindTextDelta, text)
}

// completion is say completion_result: the final answer. It streams like
// text; once complete, its result waits for the idle ask (or the end).
func (p *parser) completion(m *msg, st *entry) error {
	if st.done {
		return nil
	}
	text := strings.TrimSuffix(m.text, changesFlag)
	p.sawAgent = true
	if err := p.block(m, st, streaming.KindTextDelta, streaming.RoleAssistant, text); err != nil {
		return err
	}
	if !m.complete() {
		return nil
	}
	if err := p.flushPending(); err != nil {
		return err
	}
	p.pending = &pendingResult{text: text}
	p.lastFinal = text
	return nil
}

// completionAsk is the idle ask after the answer: it ends the run. Without
// a say completion_result before it, its own text is the answer.
func (p *parser) completionAsk(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	text := strings.TrimSuffix(m.text, changesFlag)
	if p.pending != nil {
		return p.flushPending()
	}
	if p.run.ended {
		return nil // the answer of this run was already given
	}
	if text != "" && text != p.lastFinal {
		if err := p.out.Message(parsers.Msg{ID: m.id, Role: streaming.RoleAssistant}, streaming.KindTextDelta, text); err != nil {
			return err
		}
		p.lastFinal = text
	}
	return p.result(true, text, "")
}

// flushPending emits the result of a completion_result.
func (p *parser) flushPending() error {
	if p.pending == nil {
		return nil
	}
	text := p.pending.text
	p.pending = nil
	return p.result(true, text, "")
}

// result ends the run.
func (p *parser) result(ok bool, text, reason string) error {
	if p.tool != nil {
		if err := p.endTool(streaming.ToolOK); err != nil {
			return err
		}
	}
	p.pending = nil
	p.run.ended = true
	p.out.Ev = streaming.Event{Kind: streaming.KindResult, OK: ok, Text: text, Reason: reason, Turns: p.run.requests}
	if p.run.hasUsage {
		u := p.run.usage
		p.out.Ev.Usage = &u
	}
	if p.run.firstTS > 0 && p.lastTS > p.run.firstTS {
		p.out.Ev.DurationMS = p.lastTS - p.run.firstTS
	}
	return p.out.Push()
}

// failureLabels name the idle asks that end a run in failure.
var failureLabels = map[string]string{
	"api_req_failed":                "API request failed",
	"mistake_limit_reached":         "Mistake limit reached",
	"auto_approval_max_req_reached": "Auto-approval request limit reached",
	"payment_required_prompt":       "Payment required",
	"invalid_model":                 "Invalid model",
}

// failure is an idle ask that ends the run: api_req_failed,
// mistake_limit_reached and their kin.
func (p *parser) failure(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	text := m.text
	for _, path := range []string{"message", "error.message", "error"} {
		if v := m.data.Get(path); v.Exists() && v.String() != "" && !v.IsObject() {
			text = v.String()
			break
		}
	}
	label := failureLabels[m.sub]
	full := label
	if text != "" {
		full += ": " + text
	}
	p.pending = nil // a later failure is what the run ended with
	p.out.Ev = streaming.Event{Kind: streaming.KindError, Text: full, Fatal: true}
	if err := p.out.Push(); err != nil {
		return err
	}
	reason := m.sub
	if text != "" {
		reason += ": " + parsers.Clip(parsers.FirstLine(text), 200)
	}
	return p.result(false, "", reason)
}

// followup is the agent asking the user a question (ask followup): shown
// as assistant text with the suggested answers.
func (p *parser) followup(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	q := m.text
	if v := m.data.Get("question"); v.Exists() {
		q = v.String()
	}
	var b strings.Builder
	b.WriteString(q)
	opts := m.data.Get("options")
	if !opts.IsArray() {
		opts = m.data.Get("suggest")
	}
	first := true
	opts.ForEach(func(_, o gjson.Result) bool {
		a := o.String()
		if o.IsObject() {
			a = o.Get("answer").String()
		}
		if a == "" {
			return true
		}
		if first {
			b.WriteString("\n")
			first = false
		}
		b.WriteString("\n- ")
		b.WriteString(a)
		return true
	})
	if b.Len() == 0 {
		return nil
	}
	return p.out.Message(parsers.Msg{ID: m.id, Role: streaming.RoleAssistant}, streaming.KindTextDelta, b.String())
}

// planResponse is Cline's plan-mode answer (ask plan_mode_respond), JSON
// with a response field; shown when complete.
func (p *parser) planResponse(m *msg, st *entry) error {
	if m.partial {
		return nil
	}
	text := m.text
	if v := m.data.Get("response"); v.Exists() {
		text = v.String()
	}
	return p.block(m, st, streaming.KindTextDelta, streaming.RoleAssistant, text)
}

// cliMessage handles Kilo's CLI-sourced messages (source "cli").
func (p *parser) cliMessage(m *msg, st *entry) error {
	switch m.sub {
	case "welcome", "empty":
		return nil
	case "user":
		return p.userMessage(m, st)
	case "assistant":
		return p.block(m, st, streaming.KindTextDelta, streaming.RoleAssistant, m.text)
	case "system", "requestCheckpointRestoreApproval":
		return p.notice(m, st)
	case "error":
		return p.sayError(m, st)
	}
	return p.unknown(m, st)
}
