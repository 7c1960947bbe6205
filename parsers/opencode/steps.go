package opencode

import (
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// stepStart begins an LLM call. Each step is a new assistant message
// (part.messageID); its message is opened with its first text or
// reasoning part, so a step of tool calls only shows no empty message.
// A step after a "stop" means the run went on: "stop" was only a hint.
func (p *parser) stepStart(part *parsers.Object, emit parsers.Emit) error {
	if err := p.closeMsg(emit); err != nil {
		return err
	}
	p.stepMsg = part.Get("messageID").String()
	if p.run.firstStep == "" {
		p.run.firstStep = strings.Clone(p.stepMsg)
	}
	if p.stepMsg == "" {
		p.stepMsg = p.genID("step")
	}
	p.stepTools = false
	p.run.steps++
	p.run.terminal = false
	return nil
}

// stepFinish ends an LLM call: its usage (per step), and whether the run
// ends with it. The run goes on after "tool-calls" and "unknown" (as
// OpenCode's own loop does); any other reason ends it. A missing reason
// (older versions) ends it unless the step ran tools.
func (p *parser) stepFinish(part *parsers.Object, emit parsers.Emit) error {
	if err := p.closeMsg(emit); err != nil {
		return err
	}
	if u, ok := stepUsage(part); ok {
		r := &p.run
		r.usage.InputTokens += u.InputTokens
		r.usage.OutputTokens += u.OutputTokens
		r.usage.CacheReadTokens += u.CacheReadTokens
		r.usage.CacheWriteTokens += u.CacheWriteTokens
		r.usage.CostUSD += u.CostUSD
		r.usage.HasCost = r.usage.HasCost || u.HasCost
		r.hasUsage = true
		e := p.event(streaming.KindUsage)
		e.Usage = &u
		if err := emit.Push(e); err != nil {
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

// ensureMsg opens the assistant message a part belongs to.
func (p *parser) ensureMsg(part *parsers.Object, emit parsers.Emit) (string, error) {
	id := part.Get("messageID").String()
	if id == "" {
		id = p.stepMsg
	}
	if id == "" {
		// A part without a step (a stream joined mid-way).
		p.stepMsg = p.genID("step")
		id = p.stepMsg
	}
	if id == p.openMsg {
		return id, nil
	}
	if err := p.closeMsg(emit); err != nil {
		return "", err
	}
	p.openMsg = id
	p.nblocks = 0
	e := p.event(streaming.KindMessageStart)
	e.Message, e.Role = id, streaming.RoleAssistant
	return id, emit.Push(e)
}

// closeMsg ends the open assistant message, at the end of its step.
func (p *parser) closeMsg(emit parsers.Emit) error {
	if p.openMsg == "" {
		return nil
	}
	id := p.openMsg
	p.openMsg = ""
	// Its parts' texts are not needed any more: only that they were shown.
	for part := range p.seen {
		p.shown.add(part)
	}
	clear(p.seen)
	e := p.event(streaming.KindMessageStop)
	e.Message, e.Role = id, streaming.RoleAssistant
	return emit.Push(e)
}
