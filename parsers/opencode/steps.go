package opencode

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// stepStart begins an LLM call. Each step is a new assistant message
// (part.messageID); its message is opened with its first text or
// reasoning part, so a step of tool calls only shows no empty message.
// A step after a "stop" means the run went on: "stop" was only a hint.
func (p *parser) stepStart(part *parsers.Object) error {
	if err := p.closeMsg(); err != nil {
		return err
	}
	p.stepMsg = strings.Clone(part.Get("messageID").String())
	p.run.over.Opened(p.stepMsg)
	if p.stepMsg == "" {
		p.stepMsg = p.ids.Next("step")
	}
	p.stepTools = false
	p.inStep = true
	p.run.steps++
	p.run.terminal = false
	return nil
}

// stepFinish ends an LLM call: its usage (per step), and whether the run
// ends with it. The run goes on after "tool-calls" and "unknown" (as
// OpenCode's own loop does); any other reason ends it. A missing reason
// (older versions) ends it unless the step ran tools.
func (p *parser) stepFinish(part *parsers.Object) error {
	p.inStep = false
	if err := p.closeMsg(); err != nil {
		return err
	}
	if u, ok := stepUsage(part); ok {
		parsers.AddUsage(&p.run.usage, u)
		p.run.hasUsage = true
		e := p.out.New(streaming.KindUsage)
		e.Usage = &u
		if err := p.out.Push(); err != nil {
			return err
		}
	}
	reason := part.Get("reason")
	switch {
	case reason.Exists():
		s := reason.String()
		p.run.terminal = s != "tool-calls" && s != "unknown"
		p.run.termReason = s
	default:
		p.run.terminal = !p.stepTools
		p.run.termReason = ""
	}
	return nil
}

// stepUsage reads a step's tokens and cost. Output counts reasoning
// tokens too (OpenCode reports them apart; they are billed as output).
func stepUsage(part *parsers.Object) (streaming.Usage, bool) {
	tokens, cost := part.Get("tokens"), part.Get("cost")
	if !tokens.IsObject() && !cost.Exists() {
		return streaming.Usage{}, false
	}
	u := streaming.Usage{
		InputTokens:      tokens.Get("input").Int(),
		OutputTokens:     tokens.Get("output").Int() + tokens.Get("reasoning").Int(),
		CacheReadTokens:  tokens.Get("cache.read").Int(),
		CacheWriteTokens: tokens.Get("cache.write").Int(),
	}
	if cost.Type == gjson.Number {
		u.CostUSD, u.HasCost = cost.Num, true
	}
	return u, true
}

// partMsg is the assistant message a part belongs to: its messageID, or
// the step's. The step's message is stopped at the step's end; a part of
// another message (sent again after its step) is sent under that
// message's id all the same, and the session, which remembers what each
// stopped message showed, drops it or shows it.
func (p *parser) partMsg(part *parsers.Object) string {
	id := part.Get("messageID").String()
	if p.stepMsg == "" {
		// A part before any step (a stream joined mid-way): its message is
		// the step's.
		p.stepMsg, p.inStep = strings.Clone(id), true
		if id == "" {
			p.stepMsg = p.ids.Next("step")
		}
	}
	if id == "" {
		id = p.stepMsg
	}
	if p.inStep && id == p.stepMsg {
		p.openMsg = p.stepMsg
	}
	return id
}

// closeMsg ends the step's assistant message, if a part opened it.
func (p *parser) closeMsg() error {
	if p.openMsg == "" {
		return nil
	}
	id := p.openMsg
	p.openMsg = ""
	return p.out.Stop(parsers.Msg{ID: id, Role: streaming.RoleAssistant})
}
