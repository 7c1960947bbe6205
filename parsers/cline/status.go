package cline

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// States of an api_req_started message (docs/formats/cline.md).
const (
	apiNone  uint8 = iota
	apiShown       // shown as in progress
	apiDone        // shown with its cost, failure or cancellation
)

// apiRequest is say api_req_started. Its text (Kilo: metadata) is JSON
// that starts as a placeholder and is updated in place with tokens and
// cost; it is complete only with cost, streamingFailedMessage or
// cancelReason. The cost is counted once, when it arrives.
func (p *parser) apiRequest(m *msg, st *entry, isNew bool) error {
	if isNew {
		p.run.requests++
	}
	if st.api == apiDone {
		return nil
	}
	d := m.data
	cost := d.Get("cost")
	failed := d.Get("streamingFailedMessage").String()
	cancel := d.Get("cancelReason").String()
	if !cost.Exists() && failed == "" && cancel == "" {
		if st.api == apiShown {
			return nil
		}
		st.api = apiShown
		return p.out.Status("API request started", streaming.LevelVerbose)
	}
	st.api = apiDone
	u := streaming.Usage{
		InputTokens:      d.Get("tokensIn").Int(),
		OutputTokens:     d.Get("tokensOut").Int(),
		CacheReadTokens:  d.Get("cacheReads").Int(),
		CacheWriteTokens: d.Get("cacheWrites").Int(),
		CostUSD:          cost.Float(),
		HasCost:          cost.Type == gjson.Number,
	}
	if u.Total() > 0 || u.CacheReadTokens > 0 || u.CacheWriteTokens > 0 || u.CostUSD > 0 {
		p.addUsage(u)
		p.out.Ev = streaming.Event{Kind: streaming.KindUsage, Usage: &u}
		if err := p.out.Push(); err != nil {
			return err
		}
	}
	switch {
	case failed != "":
		if msg := parseJSONText(failed).Get("message").String(); msg != "" {
			failed = msg
		}
		return p.warnError("API request failed: " + failed)
	case cancel == "streaming_failed":
		return p.warnError("API request failed (streaming failed)")
	case cancel != "":
		return p.out.Status("API request cancelled ("+cancel+")", streaming.LevelWarning)
	}
	return p.out.Status(apiSummary(u), streaming.LevelVerbose)
}

// apiSummary is the status line of a finished request:
// "API request: $0.0123, 1.2k in / 300 out".
func apiSummary(u streaming.Usage) string {
	var b strings.Builder
	b.WriteString("API request: ")
	if u.HasCost {
		fmt.Fprintf(&b, "$%.4f, ", u.CostUSD)
	}
	b.WriteString(humanTokens(u.InputTokens))
	b.WriteString(" in / ")
	b.WriteString(humanTokens(u.OutputTokens))
	b.WriteString(" out")
	if u.CacheReadTokens > 0 {
		b.WriteString(", " + humanTokens(u.CacheReadTokens) + " cache read")
	}
	if u.CacheWriteTokens > 0 {
		b.WriteString(", " + humanTokens(u.CacheWriteTokens) + " cache write")
	}
	return b.String()
}

// humanTokens formats a token count: 300, 1.2k, 52k, 1.3M.
func humanTokens(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case n < 100_000:
		return strings.TrimSuffix(strconv.FormatFloat(float64(n)/1000, 'f', 1, 64), ".0") + "k"
	case n < 1_000_000:
		return strconv.FormatInt((n+500)/1000, 10) + "k"
	}
	return strings.TrimSuffix(strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64), ".0") + "M"
}

// addUsage adds one request's usage to the run's totals, given with the
// result. Cline reports usage per request, never cumulative.
func (p *parser) addUsage(u streaming.Usage) {
	t := &p.run.usage
	parsers.AddUsage(t, u)
	t.CostUSD = math.Round(t.CostUSD*1e9) / 1e9
	p.run.hasUsage = true
}

// warnError is an error the agent recovers from (a failed request it
// retries, a diff that did not apply).
func (p *parser) warnError(text string) error {
	p.out.Ev = streaming.Event{Kind: streaming.KindError, Text: text, Level: streaming.LevelWarning}
	return p.out.Push()
}

// retry is a retried or delayed API request: a warning status line.
func (p *parser) retry(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	var text string
	switch m.sub {
	case "api_req_retried":
		text = "API request retried"
	case "error_retry":
		d := m.data
		attempt, max := d.Get("attempt").Int(), d.Get("maxAttempts").Int()
		text = "API retry"
		if attempt > 0 {
			text += fmt.Sprintf(" %d/%d", attempt, max)
		}
		if d.Get("failed").Bool() {
			text += " failed"
		} else if s := d.Get("delaySeconds"); s.Exists() {
			text += fmt.Sprintf(" in %ds", s.Int())
		}
	case "api_req_retry_delayed":
		text = "API request retry delayed"
		if t := parsers.FirstLine(m.text); t != "" {
			text = "API retry: " + parsers.Clip(t, 200)
		}
	case "api_req_rate_limit_wait":
		text = "rate limit: waiting"
		if t := parsers.FirstLine(m.text); t != "" {
			text += " (" + parsers.Clip(t, 200) + ")"
		}
	}
	return p.out.Status(text, streaming.LevelWarning)
}

// sayError is say error and its kin; only say error is an error proper,
// the rest are warnings the agent works around.
func (p *parser) sayError(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	text := strings.TrimSpace(m.text)
	switch m.sub {
	case "error":
		if text == "" {
			text = "error"
		}
		p.out.Ev = streaming.Event{Kind: streaming.KindError, Text: text}
		return p.out.Push()
	case "diff_error":
		return p.warnError(joinText("diff edit failed", text))
	case "rooignore_error", "clineignore_error":
		return p.warnError(joinText("access blocked by ignore file", text))
	}
	return p.warnError(joinText("context condensing failed", text))
}

func joinText(label, text string) string {
	if text == "" {
		return label
	}
	return label + ": " + text
}

// noticeLabels are the status lines of says that carry no text.
var noticeLabels = map[string]string{
	"shell_integration_warning":        "shell integration unavailable: command output may be missing",
	"too_many_tools_warning":           "too many tools enabled",
	"load_mcp_documentation":           "loading MCP documentation",
	"requestCheckpointRestoreApproval": "checkpoint restore approval requested",
}

// notice is a one-line status: Kilo CLI system messages, shell integration
// and tool-count warnings, browser session status.
func (p *parser) notice(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	text := parsers.Clip(parsers.FirstLine(m.text), 300)
	if text == "" || m.sub == "shell_integration_warning" {
		text = noticeLabels[m.sub]
	}
	if text == "" {
		return nil
	}
	level := streaming.LevelInfo
	if strings.HasSuffix(m.sub, "_warning") {
		level = streaming.LevelWarning
	}
	return p.out.Status(text, level)
}

// resumed is the ask that reopens a task.
func (p *parser) resumed(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	return p.out.Status("task resumed", streaming.LevelInfo)
}

// checkpoint is say checkpoint_saved (Kilo: the hash is the text) or
// checkpoint_created (Cline: lastCheckpointHash). The same hash is shown
// once: several task instances can save identical checkpoints.
func (p *parser) checkpoint(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	hash := p.line.Str("lastCheckpointHash")
	if hash == "" {
		hash = strings.TrimSpace(m.text)
	}
	if hash == "" {
		return p.out.Status("checkpoint saved", streaming.LevelVerbose)
	}
	if p.checkpoints[hash] {
		return nil
	}
	if len(p.checkpoints) >= maxEntries {
		clear(p.checkpoints)
	}
	p.checkpoints[hash] = true
	short := hash
	if len(short) > 12 && !strings.ContainsAny(short, " \n") {
		short = short[:12]
	}
	return p.out.Status("checkpoint "+parsers.Clip(short, 80), streaming.LevelVerbose)
}

// plan is Cline's task_progress (a markdown checklist) or Kilo's edited
// todo list: the latest full plan, shown when it changes.
func (p *parser) plan(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	entries := planEntries(m)
	if len(entries) == 0 {
		return nil
	}
	return p.emitPlan(entries)
}

func (p *parser) emitPlan(entries []streaming.PlanEntry) error {
	var key strings.Builder
	for _, e := range entries {
		key.WriteString(e.Status)
		key.WriteByte(0)
		key.WriteString(e.Text)
		key.WriteByte(0)
	}
	if key.String() == p.lastPlan {
		return nil
	}
	p.lastPlan = key.String()
	p.out.Ev = streaming.Event{Kind: streaming.KindPlan, Entries: entries}
	return p.out.Push()
}

// planEntries reads a todo list: a JSON {todos:[{content,status}]} or a
// markdown checklist ("- [ ] step", "- [x] done").
func planEntries(m *msg) []streaming.PlanEntry {
	var out []streaming.PlanEntry
	todos := m.data.Get("todos")
	if !todos.Exists() && m.data.IsArray() {
		todos = m.data
	}
	if todos.IsArray() {
		todos.ForEach(func(_, t gjson.Result) bool {
			text := t.Get("content").String()
			if text == "" {
				text = t.Get("text").String()
			}
			if text != "" {
				out = append(out, streaming.PlanEntry{Text: text, Status: t.Get("status").String()})
			}
			return true
		})
		return out
	}
	for _, line := range strings.Split(m.text, "\n") {
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, "- [")
		if !ok {
			rest, ok = strings.CutPrefix(line, "* [")
		}
		if !ok || len(rest) < 2 || rest[1] != ']' {
			continue
		}
		status := "pending"
		switch rest[0] {
		case 'x', 'X':
			status = "completed"
		case '-', '~':
			status = "in_progress"
		}
		if text := strings.TrimSpace(rest[2:]); text != "" {
			out = append(out, streaming.PlanEntry{Text: text, Status: status})
		}
	}
	return out
}

// context is a condensed or truncated context window.
func (p *parser) context(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	if m.sub == "condense_context" {
		c := p.line.Get("contextCondense")
		text := "context condensed"
		if prev, next := c.Get("prevContextTokens").Int(), c.Get("newContextTokens").Int(); prev > 0 {
			text += fmt.Sprintf(": %s → %s tokens", humanTokens(prev), humanTokens(next))
		}
		if cost := c.Get("cost").Float(); cost > 0 {
			u := streaming.Usage{CostUSD: cost, HasCost: true}
			p.addUsage(u)
			p.out.Ev = streaming.Event{Kind: streaming.KindUsage, Usage: &u}
			if err := p.out.Push(); err != nil {
				return err
			}
		}
		return p.out.Status(text, streaming.LevelInfo)
	}
	c := p.line.Get("contextTruncation")
	text := "context truncated"
	if n := c.Get("messagesRemoved").Int(); n > 0 {
		text += fmt.Sprintf(": %d messages removed", n)
	}
	if prev, next := c.Get("prevContextTokens").Int(), c.Get("newContextTokens").Int(); prev > 0 {
		text += fmt.Sprintf(" (%s → %s tokens)", humanTokens(prev), humanTokens(next))
	}
	return p.out.Status(text, streaming.LevelInfo)
}

// image is say image: summarised, never printed.
func (p *parser) image(m *msg, st *entry) error {
	if !once(m, st) {
		return nil
	}
	s := imageSummaries(p.line)
	if s == "" && strings.HasPrefix(m.text, "data:") {
		s = dataURLSummary(m.text)
	}
	if s == "" {
		return nil
	}
	return p.out.Status("image "+s, streaming.LevelInfo)
}

// imageSummaries summarises a message's images (data URLs or paths).
func imageSummaries(l *parsers.Line) string {
	var parts []string
	l.Get("images").ForEach(func(_, v gjson.Result) bool {
		s := v.String()
		if strings.HasPrefix(s, "data:") {
			parts = append(parts, dataURLSummary(s))
		} else if s != "" {
			parts = append(parts, "‹"+parsers.Clip(s, 120)+"›")
		}
		return true
	})
	return strings.Join(parts, " ")
}

// dataURLSummary is ‹image/png 412 KB› for "data:image/png;base64,…".
func dataURLSummary(s string) string {
	head, body, _ := strings.Cut(strings.TrimPrefix(s, "data:"), ",")
	media, _, _ := strings.Cut(head, ";")
	return parsers.ImageSummary(media, len(body))
}
