package cursor

import (
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// result ends the run. result.result is every segment's text run
// together without separators (docs/formats/cursor.md), so it is not the
// answer when the segments were shown: the session's answer is then the
// last segment (each part of a composer model's message is a segment:
// the last part).
func (p *parser) result(l *parsers.Line) error {
	if err := p.closeThinking(); err != nil {
		return err
	}
	if err := p.endSegments(); err != nil {
		return err
	}
	ev := p.out.New(streaming.KindResult)
	sub := l.Str("subtype")
	isErr := l.Get("is_error").Bool()
	ev.OK = !isErr && (sub == "" || sub == "success")
	ev.DurationMS = l.Get("duration_ms").Int()
	text := l.Get("result").String()
	if !p.sawText {
		ev.Text = text
	}
	if !ev.OK {
		reason := sub
		if reason == "" || reason == "success" {
			reason = "error"
		}
		msg := first(l.Get("error"), "message")
		if msg == "" {
			msg = l.Str("error")
		}
		if msg == "" && isErr {
			msg = text
		}
		if msg != "" {
			reason += ": " + parsers.Clip(msg, 200)
		}
		ev.Reason = reason
		if isErr && ev.Text == text {
			// The error text is the reason, not an answer.
			ev.Text = ""
		}
	}
	if u := l.Get("usage"); u.IsObject() {
		ev.Usage = &streaming.Usage{
			InputTokens:      u.Get("inputTokens").Int() + u.Get("input_tokens").Int(),
			OutputTokens:     u.Get("outputTokens").Int() + u.Get("output_tokens").Int(),
			CacheReadTokens:  u.Get("cacheReadTokens").Int() + u.Get("cache_read_input_tokens").Int(),
			CacheWriteTokens: u.Get("cacheWriteTokens").Int() + u.Get("cache_creation_input_tokens").Int(),
		}
		if c := l.Get("total_cost_usd"); c.Exists() {
			ev.Usage.CostUSD, ev.Usage.HasCost = c.Float(), true
		}
	}
	p.sawText = false
	return p.out.Push()
}
