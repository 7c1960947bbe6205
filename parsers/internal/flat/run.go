package flat

import (
	"slices"
	"strings"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// Call starts a tool call; an empty id is given one, and a result
// without an id is paired with the oldest open call.
func (p *Parser) Call(id, name, input, title string) error {
	if err := p.Close(); err != nil {
		return err
	}
	if id == "" {
		id = p.IDs.Next("call")
	}
	if p.open(id) >= 0 {
		return nil
	}
	p.calls = append(p.calls, call{strings.Clone(id), strings.Clone(name)})
	e := p.Out.New(streaming.KindToolStart)
	e.ID, e.Name, e.Input, e.Title = id, parsers.CleanToolName(name), input, title
	return p.Out.Push()
}

// Answered reports whether call id ended in this run.
func (p *Parser) Answered(id string) bool { return p.ended[id] }

// OpenCalls is how many calls are open.
func (p *Parser) OpenCalls() int { return len(p.calls) }

// IsOpen reports whether a call is open.
func (p *Parser) IsOpen(id string) bool { return p.open(id) >= 0 }

// NameOf is an open call's tool name.
func (p *Parser) NameOf(id string) string {
	if i := p.open(id); i >= 0 {
		return p.calls[i].name
	}
	return ""
}

func (p *Parser) open(id string) int {
	return slices.IndexFunc(p.calls, func(c call) bool { return c.id == id })
}

// Output sends the output so far of an open call (the whole of it, not
// what is new).
func (p *Parser) Output(id, text string) error {
	if text == "" || p.open(id) < 0 {
		return nil
	}
	e := p.Out.New(streaming.KindToolOutputDelta)
	e.ID, e.Text = id, text
	return p.Out.Snapshot()
}

// Result is how a tool call ended.
type Result struct {
	ID       string // "": the oldest open call
	Name     string // "": the call's
	Output   string
	Display  string // the output as a person reads it, when the agent wraps it
	Status   streaming.ToolStatus
	ExitCode *int
}

// End ends a tool call. A result for a call never started starts it
// first, so that it is shown with its name.
func (p *Parser) End(r Result) error {
	if err := p.Close(); err != nil {
		return err
	}
	if r.ID == "" && len(p.calls) > 0 {
		r.ID = p.calls[0].id
	}
	i := p.open(r.ID)
	if i < 0 {
		if err := p.Call(r.ID, r.Name, "", ""); err != nil {
			return err
		}
		i = len(p.calls) - 1
		r.ID = p.calls[i].id
	}
	if r.Name == "" {
		r.Name = p.calls[i].name
	}
	p.calls = slices.Delete(p.calls, i, i+1)
	if p.ended == nil {
		p.ended = map[string]bool{}
	}
	p.ended[strings.Clone(r.ID)] = true
	if r.Status == "" {
		r.Status = streaming.ToolOK
	}
	e := p.Out.New(streaming.KindToolEnd)
	e.ID, e.Name, e.Output, e.Display, e.Status, e.ExitCode = r.ID, parsers.CleanToolName(r.Name), r.Output, r.Display, r.Status, r.ExitCode
	return p.Out.Push()
}

// Plan sends a todo list ({todos:[{content, status, priority}]}, the
// input of a call such as TodoWrite) as the plan of call id.
func (p *Parser) Plan(id string, todos gjson.Result) error {
	if !todos.IsArray() {
		return nil
	}
	var entries []streaming.PlanEntry
	todos.ForEach(func(_, t gjson.Result) bool {
		entries = append(entries, streaming.PlanEntry{Text: t.Get("content").String(), Status: t.Get("status").String(),
			Priority: t.Get("priority").String()})
		return true
	})
	e := p.Out.New(streaming.KindPlan)
	e.ID, e.Entries = id, entries
	return p.Out.Push()
}

// Fail sends the run's fatal error; the first one is the run's failure.
func (p *Parser) Fail(text string) error {
	if err := p.Close(); err != nil {
		return err
	}
	text = strings.TrimSpace(text)
	if text == "" {
		text = "error"
	}
	if p.failed == "" {
		p.failed = strings.Clone(text)
	}
	e := p.Out.New(streaming.KindError)
	e.Text, e.Fatal = text, true
	return p.Out.Push()
}

// Outcome is how a run ended.
type Outcome struct {
	Answer     string // the final answer, when the agent restates it
	Reason     string // why it stopped, when it says
	Failed     bool   // it failed (a fatal error sent before fails it too)
	Usage      *streaming.Usage
	Turns      int
	DurationMS int64
	Models     []string
}

// Done sends the run's result. The open message is closed first, and
// the calls still open end incomplete.
func (p *Parser) Done(o Outcome) error {
	for len(p.calls) > 0 {
		if err := p.End(Result{ID: p.calls[0].id, Status: streaming.ToolIncomplete}); err != nil {
			return err
		}
	}
	if err := p.Close(); err != nil {
		return err
	}
	p.done = true
	e := p.Out.New(streaming.KindResult)
	e.OK, e.Reason, e.Text = !o.Failed && p.failed == "", o.Reason, o.Answer
	if p.failed != "" && e.Reason == "" {
		e.Reason = p.failed
	}
	e.Usage, e.Turns, e.DurationMS, e.Models = o.Usage, o.Turns, o.DurationMS, o.Models
	return p.Out.Push()
}

// UsageOf reads token figures under Anthropic's names (input_tokens,
// output_tokens, cache_read_input_tokens, cache_creation_input_tokens)
// or the common variants (cache_write_input_tokens; total_cost_usd,
// cost_usd); nil when there are none.
func UsageOf(u gjson.Result) *streaming.Usage {
	if !u.IsObject() {
		return nil
	}
	r := &streaming.Usage{
		InputTokens:      u.Get("input_tokens").Int(),
		OutputTokens:     u.Get("output_tokens").Int(),
		CacheReadTokens:  u.Get("cache_read_input_tokens").Int(),
		CacheWriteTokens: u.Get("cache_creation_input_tokens").Int() + u.Get("cache_write_input_tokens").Int(),
	}
	for _, k := range [...]string{"total_cost_usd", "cost_usd"} {
		if c := u.Get(k); c.Type == gjson.Number {
			r.CostUSD, r.HasCost = c.Num, true
			break
		}
	}
	if *r == (streaming.Usage{}) {
		return nil
	}
	return r
}
