package grok

import (
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/internal/flat"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

var format = &flat.Format{
	Type: "type",
	Rules: map[string]flat.Rule{
		"thought":          {What: flat.Thinking, Text: "data"},
		"text":             {What: flat.Text, Text: "data"},
		"usage":            {What: flat.Usage, Usage: "usage"}, // its signature is opaque: never shown
		"tool_call":        {What: flat.Call, ID: "toolCallId", Name: "toolName", Input: "rawInput", Title: "title"},
		"tool_call_update": {Hook: update},
		"end":              {Hook: end},
		// ACP's other session updates, at the top level as Grok's tool
		// updates are: the slash commands it offers, its mode, a plan.
		"available_commands_update": {What: flat.Skip},
		"current_mode_update":       {What: flat.Skip},
		"plan":                      {Hook: plan},
	},
}

// plan is ACP's plan update: the whole list, {entries:[{content,
// status, priority}]}.
func plan(p *flat.Parser, l *parsers.Line) error {
	return p.Plan("", l.Get("entries"))
}

// update is a call's progress: its output so far, then its end.
func update(p *flat.Parser, l *parsers.Line) error {
	id := l.Str("toolCallId")
	out, exit := output(l)
	switch st := l.Str("status"); st {
	case "completed", "failed", "cancelled", "canceled":
		r := flat.Result{ID: id, Output: out, ExitCode: exit, Status: streaming.ToolOK}
		if st != "completed" || exit != nil && *exit != 0 {
			r.Status = streaming.ToolError
		}
		return p.End(r)
	}
	if !p.IsOpen(id) {
		if err := p.Call(id, "", "", ""); err != nil {
			return err
		}
	}
	return p.Output(id, out)
}

// output is what a call printed: a shell's bytes (rawOutput.output, an
// array of byte values) decoded, else the update's text content; and a
// shell's exit code.
func output(l *parsers.Line) (string, *int) {
	raw := l.Get("rawOutput")
	if raw.Get("type").Str == "Bash" {
		var b []byte
		raw.Get("output").ForEach(func(_, v gjson.Result) bool {
			b = append(b, byte(v.Int()))
			return true
		})
		s := string(b)
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		if s == "" {
			s = raw.Get("output_for_prompt").String()
		}
		return s, parsers.IntOrNil(raw.Get("exit_code"))
	}
	var b strings.Builder
	l.Get("content").ForEach(func(_, c gjson.Result) bool {
		if t := c.Get("content.text"); t.Type == gjson.String {
			b.WriteString(t.Str)
		}
		return true
	})
	return b.String(), nil
}

// end is the run's last line: its figures. A stop reason other than the
// end of the model's turn fails the run.
func end(p *flat.Parser, l *parsers.Line) error {
	o := flat.Outcome{Usage: flat.UsageOf(l.Get("usage")), Turns: int(l.Get("num_turns").Int())}
	if o.Usage != nil {
		if c := l.Get("total_cost_usd"); c.Type == gjson.Number {
			o.Usage.CostUSD, o.Usage.HasCost = c.Num, true
		}
	}
	l.Get("modelUsage").ForEach(func(k, _ gjson.Result) bool {
		o.Models = append(o.Models, k.String())
		return true
	})
	switch r := l.Str("stopReason"); r {
	case "", "end_turn", "stop":
	case "max_tokens", "max_turn_requests":
		o.Reason = r
	default:
		o.Reason, o.Failed = r, true
	}
	return p.Done(o)
}
