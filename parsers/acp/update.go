package acp

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// update handles one session/update (acp.md §4). u is the update object.
func (p *parser) update(l *parsers.Line, u *parsers.Object, emit parsers.Emit) error {
	kind := u.Get("sessionUpdate").Str
	switch kind {
	case "agent_message_chunk":
		return p.chunk(l, entAgent, u, emit)
	case "agent_thought_chunk":
		return p.chunk(l, entThought, u, emit)
	case "user_message_chunk":
		return p.chunk(l, entUser, u, emit)
	case "tool_call", "tool_call_update":
		return p.toolCall(l, u, emit)
	case "plan":
		return p.plan(l, u.Get("entries"), emit)
	case "plan_update":
		if e := u.Get("plan.entries"); e.IsArray() {
			return p.plan(l, e, emit)
		}
		return p.plan(l, u.Get("entries"), emit)
	case "available_commands_update":
		// Kept in state, not shown (seed 003 rule 12).
		p.commands = p.commands[:0]
		u.Get("availableCommands").ForEach(func(_, c gjson.Result) bool {
			p.commands = append(p.commands, c.Get("name").Str)
			return true
		})
		return p.ensureRun(emit)
	case "config_option_update":
		return p.ensureRun(emit)
	case "current_mode_update":
		to := u.Get("currentModeId").Str
		if to == "" {
			to = u.Get("modeId").Str // the docs' spelling
		}
		return p.modeChange(l, to, emit)
	case "session_info_update":
		if t := u.Get("title").Str; t != "" {
			return p.status("session title: "+t, streaming.LevelInfo, emit)
		}
		return p.ensureRun(emit)
	case "usage_update":
		return p.usage(u, emit)
	case "notice":
		text := u.Get("title").Str
		if d := u.Get("description").Str; d != "" {
			if text != "" {
				text += ": "
			}
			text += d
		}
		level := streaming.LevelInfo
		switch u.Get("severity").Str {
		case "warning", "error":
			level = streaming.LevelWarning
		}
		return p.status(text, level, emit)
	case "compaction_update":
		text := "compacting context"
		if s := u.Get("status").Str; s != "" {
			text += ": " + s
		}
		level := streaming.LevelInfo
		if e := u.Get("error"); e.Exists() && e.Type != gjson.Null {
			text += ": " + firstNonEmpty(e.Get("message").Str, e.String())
			level = streaming.LevelWarning
		}
		return p.status(text, level, emit)
	}
	return p.unknown(l, kind, emit)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// plan shows the latest full plan; each update replaces it (acp.md §4.3).
// An unchanged plan is not shown again.
func (p *parser) plan(l *parsers.Line, entries gjson.Result, emit parsers.Emit) error {
	var es []streaming.PlanEntry
	entries.ForEach(func(_, e gjson.Result) bool {
		es = append(es, streaming.PlanEntry{
			Text:     firstNonEmpty(e.Get("content").Str, e.Get("title").Str, e.Get("text").Str),
			Status:   e.Get("status").Str,
			Priority: e.Get("priority").Str,
		})
		return true
	})
	if p.hasPlan && slices.Equal(es, p.lastPlan) {
		return p.ensureRun(emit)
	}
	p.hasPlan = true
	p.lastPlan = es
	if err := p.entry(l, emit); err != nil {
		return err
	}
	ev := p.reset(streaming.KindPlan)
	ev.Entries = slices.Clone(es)
	return emit.Push(ev)
}

// modeChange shows a switch of mode; the same mode again shows nothing.
func (p *parser) modeChange(l *parsers.Line, to string, emit parsers.Emit) error {
	if to == "" || to == p.mode {
		return p.ensureRun(emit)
	}
	if err := p.entry(l, emit); err != nil {
		return err
	}
	ev := p.reset(streaming.KindModeChange)
	ev.From, ev.To = p.mode, to
	p.mode = to
	return emit.Push(ev)
}

// usage shows usage_update: context tokens used (as input tokens) and the
// session's cumulative cost.
func (p *parser) usage(u *parsers.Object, emit parsers.Emit) error {
	if err := p.ensureRun(emit); err != nil {
		return err
	}
	us := &streaming.Usage{InputTokens: u.Get("used").Int()}
	if c := u.Get("cost"); c.IsObject() && c.Get("amount").Exists() {
		if cur := c.Get("currency").Str; cur == "" || strings.EqualFold(cur, "USD") {
			us.CostUSD, us.HasCost = c.Get("amount").Float(), true
			cost := us.CostUSD
			p.lastCost = &cost
		}
	}
	ev := p.reset(streaming.KindUsage)
	ev.Usage = us
	if size := u.Get("size").Int(); size > 0 {
		ev.Text = "context " + strconv.FormatInt(us.InputTokens, 10) + "/" + strconv.FormatInt(size, 10) + " tokens"
	}
	return emit.Push(ev)
}
