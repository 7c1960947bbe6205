package render

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/streaming"
)

// RunFacts: the facts of the last run (agent, model, outcome, duration,
// turns, tokens, cost, tool calls) that the markdown transcript and the
// GitHub job summary state.

// RunFacts collects what a summary of the last run says: agent, model,
// outcome, duration, turns, tokens, cost and tool calls. It is a
// streaming.Handler; the markdown renderer and the job summary use it.
// What it keeps of events is copied (events are valid only during Handle).
type RunFacts struct {
	Runs      int
	Agent     string
	Model     string
	SessionID string
	Result    RunResult       // the run's result, if one came
	Usage     streaming.Usage // the last usage reported, if HasUsage
	HasUsage  bool
	ToolCalls int
	Failed    int // tool calls that failed or were declined
	First     time.Time
	Last      time.Time

	tools []toolCount // calls by tool name, in the order of first calls
}

// RunResult is what RunFacts keeps of a run's result event.
type RunResult struct {
	Came       bool // a result came
	DurationMS int64
	Turns      int
	Usage      streaming.Usage // if HasUsage
	HasUsage   bool
	Origin     string   // what began the run, when no prompt did
	Models     []string // the models that answered, the main one first
}

// toolCount is the number of calls of one tool. (A count in a map by name
// could not be updated without storing the event's name as the key.)
type toolCount struct {
	name  string
	calls int
}

// Handle notes one event.
func (f *RunFacts) Handle(ev *streaming.Event) error {
	if ev.Kind == streaming.KindSessionStart {
		*f = RunFacts{Runs: f.Runs + 1, Agent: kept(f.Agent, ev.Agent), Model: kept(f.Model, ev.Model),
			SessionID: kept(f.SessionID, ev.SessionID), tools: f.tools[:0]}
	}
	if !ev.Time.IsZero() {
		if f.First.IsZero() {
			f.First = ev.Time
		}
		f.Last = ev.Time
	}
	if f.Agent == "" && ev.Agent != "" {
		f.Agent = strings.Clone(ev.Agent)
	}
	switch ev.Kind {
	case streaming.KindUsage:
		if ev.Usage != nil {
			f.Usage, f.HasUsage = *ev.Usage, true
		}
	case streaming.KindToolEnd:
		f.countTool(ev.Name)
		f.ToolCalls++
		if ev.Status == streaming.ToolError || ev.Status == streaming.ToolDeclined {
			f.Failed++
		}
	case streaming.KindResult:
		f.Result = RunResult{Came: true, DurationMS: ev.DurationMS, Turns: ev.Turns, Origin: strings.Clone(ev.Origin)}
		for _, m := range ev.Models {
			f.Result.Models = append(f.Result.Models, strings.Clone(m))
		}
		if ev.Usage != nil {
			f.Result.Usage, f.Result.HasUsage = *ev.Usage, true
		}
	}
	return nil
}

// kept is s, copied unless it is old.
func kept(old, s string) string {
	if s == old {
		return old
	}
	return strings.Clone(s)
}

// countTool counts a call of the tool name. Runs call few tools: they
// are looked for in order.
func (f *RunFacts) countTool(name string) {
	for i := range f.tools {
		if f.tools[i].name == name {
			f.tools[i].calls++
			return
		}
	}
	f.tools = append(f.tools, toolCount{strings.Clone(name), 1})
}

// usage is the usage the result gives, or else the last one reported.
func (f *RunFacts) usage() *streaming.Usage {
	switch {
	case f.Result.HasUsage:
		return &f.Result.Usage
	case f.HasUsage:
		return &f.Usage
	}
	return nil
}

// Facts are the run's duration, turns, tokens and cost, as the plain
// renderer's result line shows them. Without a result, the duration is
// the span of the event times when the agent gives them.
func (f *RunFacts) Facts() []string {
	dur := f.Result.DurationMS
	if !f.Result.Came && !f.First.IsZero() && f.Last.After(f.First) {
		dur = f.Last.Sub(f.First).Milliseconds()
	}
	return splitFacts(appendResultFacts(nil, dur, f.Result.Turns, f.usage()))
}

// Labels are what the run's result names besides its figures, as agent
// text for the format to escape: what began the run (OriginLabel) and
// the models that answered (ModelsLabel); "" for none.
func (f *RunFacts) Labels() (origin, models string) {
	return originLabel(f.Result.Origin), modelsLabel(f.Result.Models)
}

// ToolList is "7 (1 failed): Bash ×4, Read ×2, Edit".
func (f *RunFacts) ToolList() string {
	if f.ToolCalls == 0 {
		return "none"
	}
	tools := slices.Clone(f.tools)
	sort.Slice(tools, func(i, j int) bool {
		if tools[i].calls != tools[j].calls {
			return tools[i].calls > tools[j].calls
		}
		return tools[i].name < tools[j].name
	})
	var parts []string
	for _, t := range tools {
		p := inline(t.name)
		if t.calls > 1 {
			p += fmt.Sprintf(" ×%d", t.calls)
		}
		parts = append(parts, p)
	}
	s := fmt.Sprintf("%d", f.ToolCalls)
	if f.Failed > 0 {
		s += fmt.Sprintf(" (%d failed)", f.Failed)
	}
	return s + ": " + strings.Join(parts, ", ")
}
