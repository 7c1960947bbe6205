package claude

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// result handles the terminal `result` frame of a run. The run is OK only
// when is_error is false, the subtype is success and terminal_reason is
// absent or "completed" (is_error:true with subtype success is an API
// error), and, for Qwen, when the last answer was not an "[API Error: …]"
// text (Qwen reports those as success).
func (p *parser) result(l *parsers.Line) error {
	if err := p.closeAll(); err != nil {
		return err
	}
	if err := p.denials(l); err != nil {
		return err
	}
	origin := l.Path("origin.kind").String()
	switch {
	case origin == "" && l.Str("local_command") == "clear":
		origin = streaming.OriginClear
	case origin == "":
		origin = p.origin
	}
	if origin == streaming.OriginTaskNotification && !p.autoSaid {
		// A turn the CLI started by itself, with no init of its own.
		about := ""
		if p.taskNote != "" {
			about = " (" + p.taskNote + ")"
		}
		if err := p.out.Status("turn started by a background task's notification"+about+", not by a prompt", streaming.LevelInfo); err != nil {
			return err
		}
	}
	p.autoSaid, p.afterResult, p.taskNote, p.origin = false, true, "", ""
	ok, reason := outcome(l)
	if ok && p.apiErr != "" {
		ok, reason = false, parsers.Clip(p.apiErr, 300)
		if !strings.HasPrefix(strings.ToLower(reason), "api error") {
			reason = "API error: " + reason
		}
	}
	p.apiErr = ""
	text := str(l.Get("result"))
	if text == "" {
		if so := l.Get("structured_output"); so.Exists() && so.Type != gjson.Null {
			text = so.Raw
		}
	}
	p.out.Ev = streaming.Event{Kind: streaming.KindResult, OK: ok, Reason: reason, Text: text,
		DurationMS: l.Get("duration_ms").Int(), Turns: int(l.Get("num_turns").Int()), Origin: origin}
	if u, has := resultUsage(l); has {
		p.out.Ev.Usage = &u
	}
	return p.out.Push()
}

// outcome decides whether a result reports success, and why not.
func outcome(l *parsers.Line) (bool, string) {
	isErr := l.Get("is_error").Bool()
	sub := l.Str("subtype")
	term := l.Str("terminal_reason")
	if !isErr && (sub == "success" || sub == "") && (term == "" || term == "completed") {
		return true, l.Str("stop_reason")
	}
	var head string
	switch {
	case sub != "" && sub != "success":
		head = sub
		if term != "" && term != "completed" && !strings.Contains(sub, term) {
			head += " (" + term + ")"
		}
	case term != "" && term != "completed":
		head = term
	default:
		head = "error"
	}
	if s := l.Get("api_error_status"); s.Type == gjson.Number {
		head += ", HTTP " + strconv.FormatInt(s.Int(), 10)
	}
	var detail string
	var errs []string
	for _, e := range l.Get("errors").Array() {
		if s := strings.TrimSpace(e.String()); s != "" {
			errs = append(errs, s)
		}
	}
	switch e := l.Get("error"); {
	case len(errs) > 0:
		detail = strings.Join(errs, "; ")
	case e.IsObject():
		// Qwen: error:{type,message}.
		detail = joinColon(e.Get("type").String(), e.Get("message").String())
	case e.Type == gjson.String:
		detail = e.Str
	case isErr:
		detail = str(l.Get("result"))
	}
	if detail = strings.TrimSpace(detail); detail != "" {
		head += ": " + parsers.Clip(strings.Join(strings.Fields(detail), " "), 300)
	}
	return false, head
}

// resultUsage reads the main thread's usage (result.usage; subagents
// are only in modelUsage, which is not added in) and the run's cost.
func resultUsage(l *parsers.Line) (streaming.Usage, bool) {
	u := l.Get("usage")
	cost := l.Get("total_cost_usd")
	usage := usageOf(l, u.Raw)
	if cost.Type == gjson.Number {
		usage.CostUSD, usage.HasCost = cost.Float(), true
	}
	// The context window of the model that cost most: the main one
	// (modelUsage also lists helper and subagent models).
	best := -1.0
	l.Get("modelUsage").ForEach(func(_, m gjson.Result) bool {
		if c := m.Get("costUSD").Float(); c > best {
			best, usage.ContextWindow = c, m.Get("contextWindow").Int()
		}
		return true
	})
	return usage, u.IsObject() || usage.HasCost
}

// denials shows the tools refused in the run (permission_denials).
func (p *parser) denials(l *parsers.Line) error {
	// What gjson's Array gives, walked once (most runs have "[]").
	var names []string
	var seen map[string]bool
	n := 0
	for e := elements(l, l.Get("permission_denials")); e.Next(); n++ {
		name := parsers.CleanToolName(fieldsLine(l).Field(e.Raw, "tool_name").String())
		if name != "" && !seen[name] {
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[name] = true
			names = append(names, name)
		}
	}
	if n == 0 {
		return nil
	}
	text := "permission denied"
	if len(names) > 0 {
		text += ": " + strings.Join(names, ", ")
	}
	if n > 1 {
		text += " (" + strconv.Itoa(n) + " calls)"
	}
	return p.out.Status(text, streaming.LevelWarning)
}
