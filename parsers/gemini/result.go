package gemini

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// errorLine is a non-fatal warning or error (loop detected, turn limit,
// invalid model stream, retries). It never ends the run: the result does.
func (p *parser) errorLine(l *parsers.Line) error {
	p.endPara()
	msg := l.Str("message")
	if msg == "" {
		msg = l.Get("message").Raw
	}
	if msg == "" {
		msg = "error"
	}
	p.lastErr = msg
	e := p.out.New(streaming.KindError)
	e.Text = msg
	if l.Str("severity") == "warning" {
		e.Level = streaming.LevelWarning
	}
	return p.out.Push()
}

// result is the terminal line: status, an error object on failures, and
// stats (tokens, duration, tool calls, per-model tokens).
func (p *parser) result(l *parsers.Line) error {
	if err := p.closePara(); err != nil {
		return err
	}
	stats := l.Get("stats")
	if line := modelsLine(stats.Get("models")); line != "" {
		// Each model's tokens: chatter; the result names the models.
		e := p.out.New(streaming.KindStatus)
		e.Text, e.Level = line, streaming.LevelVerbose
		if err := p.out.Push(); err != nil {
			return err
		}
	}
	e := p.out.New(streaming.KindResult)
	status := l.Str("status")
	e.OK = status == "success"
	if !e.OK {
		e.Reason = p.failure(status, l.Get("error"))
	}
	e.DurationMS = stats.Get("duration_ms").Int()
	e.Usage = streamUsage(stats)
	e.Models = answered(stats.Get("models"), streamModelTokens)
	return p.out.Push()
}

// answered lists the models of stats.models, the one that answered first:
// init.model can be the router's alias (auto-gemini-3), and the router's
// own call is a model of the run too (gemini-2.5-flash-lite). The model
// that answered read the whole conversation; the router read a short
// prompt, and may write more than a one-line answer (capture 21: 2724
// tokens against 9750). Ordered by total tokens, then output tokens,
// then name.
func answered(models gjson.Result, tokens func(m gjson.Result) (out, total int64)) []string {
	type entry struct {
		name       string
		out, total int64
	}
	var list []entry
	models.ForEach(func(k, v gjson.Result) bool {
		if k.String() != "" {
			out, total := tokens(v)
			list = append(list, entry{k.String(), out, total})
		}
		return true
	})
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.total != b.total {
			return a.total > b.total
		}
		if a.out != b.out {
			return a.out > b.out
		}
		return a.name < b.name
	})
	var names []string
	for _, m := range list {
		names = append(names, m.name)
	}
	return names
}

// streamModelTokens reads a stream-json stats.models entry (snake_case).
func streamModelTokens(m gjson.Result) (out, total int64) {
	total = m.Get("total_tokens").Int()
	if !m.Get("total_tokens").Exists() {
		total = m.Get("tokens.total").Int()
	}
	return m.Get("output_tokens").Int(), total
}

// jsonModelTokens reads a -o json stats.models entry (camelCase
// SessionMetrics: candidates and thoughts are the output).
func jsonModelTokens(m gjson.Result) (out, total int64) {
	t := m.Get("tokens")
	return t.Get("candidates").Int() + t.Get("thoughts").Int(), t.Get("total").Int()
}

// failure says why a result is not a success: its error object, else the
// error line before it (an invalid stream ends with a bare status:"error").
func (p *parser) failure(status string, errObj gjson.Result) string {
	if r := errorText(errObj); r != "" {
		return r
	}
	if p.lastErr != "" {
		return p.lastErr
	}
	if status == "" {
		return "result without status"
	}
	return "status " + status
}

// errorText renders an {type, message} error object as "type: message".
func errorText(v gjson.Result) string {
	if !v.IsObject() {
		return v.String()
	}
	typ, msg := v.Get("type").String(), v.Get("message").String()
	switch {
	case typ != "" && msg != "":
		return typ + ": " + msg
	case msg != "":
		return msg
	}
	return typ
}

// streamUsage reads stream-json stats. input_tokens includes cached
// tokens; Usage.InputTokens is the non-cached part ("input", newer
// versions), as for the other agents.
func streamUsage(stats gjson.Result) *streaming.Usage {
	if !stats.IsObject() {
		return nil
	}
	u := &streaming.Usage{
		OutputTokens:    stats.Get("output_tokens").Int(),
		CacheReadTokens: stats.Get("cached").Int(),
	}
	if in := stats.Get("input"); in.Exists() {
		u.InputTokens = in.Int()
	} else {
		u.InputTokens = stats.Get("input_tokens").Int() - u.CacheReadTokens
	}
	if u.InputTokens < 0 {
		u.InputTokens = 0
	}
	return u
}

// modelsLine summarises stats.models, the models really called (init's
// model can be an alias such as "auto"): "gemini-2.5-pro 7386 tokens".
func modelsLine(models gjson.Result) string {
	if !models.IsObject() {
		return ""
	}
	type entry struct {
		name  string
		total int64
	}
	var list []entry
	models.ForEach(func(k, v gjson.Result) bool {
		total := v.Get("total_tokens")
		if !total.Exists() {
			total = v.Get("tokens.total")
		}
		list = append(list, entry{k.String(), total.Int()})
		return true
	})
	if len(list) == 0 {
		return ""
	}
	parts := make([]string, len(list))
	for i, m := range list {
		parts[i] = fmt.Sprintf("%s %d tokens", m.name, m.total)
	}
	return "models: " + strings.Join(parts, ", ")
}
