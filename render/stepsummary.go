package render

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/streaming"
)

// The GitHub job summary ($GITHUB_STEP_SUMMARY) of a run, and assistant
// text made safe to embed in it.

// StepSummary is the markdown appended to $GITHUB_STEP_SUMMARY for a
// run: outcome, a table of duration, turns, tokens, cost and tool calls,
// and the final answer (answer is what was shown: the --until marker
// already stripped). input, when not "", names the file the run was read
// from (one of several): its heading says it.
func StepSummary(f *streaming.Run, s Summary, answer, until, input string) string {
	var b strings.Builder
	who := "Agent"
	if f.Agent != "" {
		who = inline(f.Agent)
	}
	if f.Model != "" {
		who += " (" + codeSpan(f.Model) + ")"
	}
	run := ""
	switch {
	case input != "":
		run = " · " + codeSpan(input) // (the runs are counted across the FILEs)
	case f.Runs > 1:
		run = fmt.Sprintf(", run %d", f.Runs)
	}
	switch {
	case s.Stopped:
		fmt.Fprintf(&b, "### ⏸ %s still running when following stopped%s\n", who, run)
	case s.Interrupted:
		fmt.Fprintf(&b, "### ⊘ %s interrupted%s\n", who, run)
	case s.Outcome == streaming.Success:
		fmt.Fprintf(&b, "### ✓ %s succeeded%s\n", who, run)
	case s.Outcome == streaming.Failure:
		fmt.Fprintf(&b, "### ✗ %s failed%s\n", who, run)
	default:
		fmt.Fprintf(&b, "### … %s did not finish%s\n", who, run)
	}
	if !s.Interrupted && !s.Stopped && s.Outcome != streaming.Success && s.Reason != "" {
		fmt.Fprintf(&b, "\n%s\n", inline(eventtext.OneLine(s.Reason)))
	}
	if s.UntilMissing {
		fmt.Fprintf(&b, "\n**The final answer lacks the completion marker** %s\n", codeSpan(until))
	}
	dur, turns, tokens, cost := "–", "–", "–", "–"
	if d := f.Duration(); d > 0 {
		dur = eventtext.Duration(d)
	}
	if f.Turns > 0 {
		turns = fmt.Sprintf("%d", f.Turns)
	}
	if u := f.Usage; u != nil {
		if u.Total() > 0 {
			in := eventtext.Tokens(u.InputTokens)
			if c := u.CacheReadTokens + u.CacheWriteTokens; c > 0 {
				in += " + " + eventtext.Tokens(c) + " cached"
			}
			tokens = in + " in, " + eventtext.Tokens(u.OutputTokens) + " out"
		}
		if eventtext.KnownCost(u) {
			cost = eventtext.Cost(u.CostUSD)
		}
	}
	b.WriteString("\n| Duration | Turns | Tokens | Cost | Tool calls |\n|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", dur, turns, tokens, cost, toolList(f))
	if strings.TrimSpace(answer) != "" {
		b.WriteString("\n#### Final answer\n\n")
		b.WriteString(markdownText(answer))
	}
	b.WriteString("\n")
	return b.String()
}

// markdownText is an assistant text made safe to embed in a markdown
// document, as the transcript writes it: raw HTML and mentions defused
// outside code, a fence left open closed, control characters visible.
func markdownText(s string) string {
	var b strings.Builder
	m := &markdownRenderer{w: bufio.NewWriter(&b), cfg: Config{Thinking: ThinkingSummary}, heading: true, last: elemText}
	m.inBlock, m.lineNo = true, 1
	m.cur.kind = streaming.KindTextDelta
	m.role = streaming.RoleAssistant
	m.addText(strings.TrimRight(s, "\n"))
	m.endBlock()
	_ = m.w.Flush()
	return b.String()
}
