package gemini

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/parsers"
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
		e := p.out.New(streaming.KindStatus)
		e.Text, e.Level = line, streaming.LevelInfo
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
	return p.out.Push()
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
