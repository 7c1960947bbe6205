package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/streaming"
)

// The run's figures as the footers, summaries and pages say them. They
// are the session's (streaming.Run): a renderer reads them, it counts
// nothing of its own.

// runOf is the run st holds. A renderer fed without a session (a
// program handing it events itself) knows of a run only what the result
// event being handled, if any, says.
func runOf(st streaming.State, ev *streaming.Event) *streaming.Run {
	if st != nil {
		return st.Run()
	}
	return ev.ResultRun()
}

// resultFacts are the facts of a result line: what began the run (when
// no prompt did), its figures, the models that answered; of a run with
// no result, its tokens and cost.
func resultFacts(run *streaming.Run) []string {
	if !run.Done {
		return eventtext.SplitFacts(eventtext.AppendFacts(nil, 0, 0, run.Usage))
	}
	facts := eventtext.SplitFacts(eventtext.AppendFacts(nil, run.DurationMS, run.Turns, run.Usage))
	if o := eventtext.OriginLabel(run.Origin); o != "" {
		facts = append([]string{clean(o)}, facts...)
	}
	if m := eventtext.ModelsLabel(run.Models); m != "" {
		facts = append(facts, clean(m))
	}
	return facts
}

// toolList is "7 (1 failed): Bash ×4, Read ×2, Edit".
func toolList(run *streaming.Run) string {
	if run.ToolCalls == 0 {
		return "none"
	}
	type count struct {
		name  string
		calls int
	}
	var tools []count
	for name, n := range run.Tools() {
		tools = append(tools, count{name, n})
	}
	sort.SliceStable(tools, func(i, j int) bool {
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
	s := fmt.Sprintf("%d", run.ToolCalls)
	if run.Failed > 0 {
		s += fmt.Sprintf(" (%d failed)", run.Failed)
	}
	return s + ": " + strings.Join(parts, ", ")
}
