package gemini

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// jsonMode renders the single object of --output-format json: a run
// start, its warnings, the response as one assistant message, the error
// if any, and a result with the usage summed over stats.models.
func (p *parser) jsonMode(l *parsers.Line) error {
	if err := p.closePara(); err != nil {
		return err
	}
	e := p.out.New(streaming.KindSessionStart)
	e.SessionID = l.Str("session_id")
	if err := p.out.Push(); err != nil {
		return err
	}
	p.lastErr = ""

	var err error
	l.Get("warnings").ForEach(func(_, w gjson.Result) bool {
		e := p.out.New(streaming.KindError)
		e.Text, e.Level = w.String(), streaming.LevelWarning
		err = p.out.Push()
		return err == nil
	})
	if err != nil {
		return err
	}

	if resp := l.Str("response"); resp != "" {
		if err := p.complete(resp); err != nil {
			return err
		}
		if err := p.closePara(); err != nil {
			return err
		}
	}

	errObj := l.Get("error")
	reason := errorText(errObj)
	if errObj.Exists() && reason == "" {
		reason = "error"
	}
	if reason != "" {
		e := p.out.New(streaming.KindError)
		e.Text, e.Fatal = reason, true
		if err := p.out.Push(); err != nil {
			return err
		}
	}

	e = p.out.New(streaming.KindResult)
	e.OK = reason == ""
	e.Reason = reason
	e.Usage = jsonUsage(l.Get("stats"))
	e.Models = answered(l.Get("stats").Get("models"), jsonModelTokens)
	return p.out.Push()
}

// jsonUsage sums the per-model token counts of the json output's stats
// (camelCase SessionMetrics: tokens.input is the non-cached prompt,
// candidates plus thoughts the output).
func jsonUsage(stats gjson.Result) *streaming.Usage {
	models := stats.Get("models")
	if !models.IsObject() {
		return nil
	}
	u := &streaming.Usage{}
	models.ForEach(func(_, m gjson.Result) bool {
		t := m.Get("tokens")
		cached := t.Get("cached").Int()
		if in := t.Get("input"); in.Exists() {
			u.InputTokens += in.Int()
		} else if n := t.Get("prompt").Int() - cached; n > 0 {
			u.InputTokens += n
		}
		u.OutputTokens += t.Get("candidates").Int() + t.Get("thoughts").Int()
		u.CacheReadTokens += cached
		return true
	})
	return u
}
