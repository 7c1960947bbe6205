package acp

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// update handles one session/update. u is the update object.
func (p *parser) update(l *parsers.Line, u *parsers.Object) error {
	kind := u.Get("sessionUpdate").Str
	switch kind {
	case "agent_message_chunk":
		return p.chunk(l, entAgent, u)
	case "agent_thought_chunk":
		return p.chunk(l, entThought, u)
	case "user_message_chunk":
		return p.chunk(l, entUser, u)
	case "tool_call", "tool_call_update":
		return p.toolCall(l, u)
	case "plan":
		return p.plan(l, u.Get("entries"))
	case "plan_update":
		if e := u.Get("plan.entries"); e.IsArray() {
			return p.plan(l, e)
		}
		return p.plan(l, u.Get("entries"))
	case "available_commands_update":
		// Kept in state, not shown: an editor's palette, not the conversation.
		p.commands = p.commands[:0]
		u.Get("availableCommands").ForEach(func(_, c gjson.Result) bool {
			p.commands = append(p.commands, c.Get("name").Str)
			return true
		})
		return p.ensureRun()
	case "config_option_update":
		return p.ensureRun()
	case "current_mode_update":
		to := u.Get("currentModeId").Str
		if to == "" {
			to = u.Get("modeId").Str // the docs' spelling
		}
		return p.modeChange(l, to)
	case "session_info_update":
		if t := u.Get("title").Str; t != "" {
			return p.status("session title: "+t, streaming.LevelInfo)
		}
		return p.ensureRun()
	case "usage_update":
		return p.usage(u)
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
		return p.status(text, level)
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
		return p.status(text, level)
	}
	return p.unknown(l, kind)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// plan shows the latest full plan; each update replaces it.
// An unchanged plan is not shown again.
func (p *parser) plan(l *parsers.Line, entries gjson.Result) error {
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
		return p.ensureRun()
	}
	p.hasPlan = true
	p.lastPlan = es
	if err := p.entry(l); err != nil {
		return err
	}
	ev := p.out.New(streaming.KindPlan)
	ev.Entries = slices.Clone(es)
	return p.out.Push()
}

// modeChange shows a switch of mode; the same mode again shows nothing.
func (p *parser) modeChange(l *parsers.Line, to string) error {
	if to == "" || to == p.mode {
		return p.ensureRun()
	}
	if err := p.entry(l); err != nil {
		return err
	}
	ev := p.out.New(streaming.KindModeChange)
	ev.From, ev.To = p.mode, to
	p.mode = to
	return p.out.Push()
}

// usage shows usage_update: context tokens used (as input tokens) and the
// session's cumulative cost.
func (p *parser) usage(u *parsers.Object) error {
	if err := p.ensureRun(); err != nil {
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
	ev := p.out.New(streaming.KindUsage)
	ev.Usage = us
	if size := u.Get("size").Int(); size > 0 {
		ev.Text = "context " + strconv.FormatInt(us.InputTokens, 10) + "/" + strconv.FormatInt(size, 10) + " tokens"
	}
	return p.out.Push()
}
