// Package eventtext is how the parts of an event read to a person, the
// same in every output format: durations, the marks of a tool call's
// status and of a plan entry, the argument that says what a call does,
// a run's figures (tokens, cost, turns) and how many lines of a long
// prompt are shown. render and render/html
// share it.
package eventtext

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/streaming"
)

// A prompt or a compaction summary longer than a screenful is folded, as
// Claude Code folds them: its first lines, "… N more lines", its last
// lines.
const (
	// PromptHead and PromptTail are the lines a folded prompt shows first
	// and last.
	PromptHead = 8
	PromptTail = 4
	// PromptScreen is a screenful of rows where the height is not known
	// (plain, markdown, html, a pretty renderer not on a terminal): a
	// longer prompt is folded. Pretty and plain count the rows a line
	// takes at their width; markdown and html count lines.
	PromptScreen = 40
)

// KeyArg is the one argument that says what a tool call does, on one
// line: the subject the parser found (its command, path, pattern), else
// the title.
func KeyArg(ev *streaming.Event) string {
	if ev.Subject != "" {
		return OneLine(ev.Subject)
	}
	return OneLine(ev.Title)
}

// ToolOutput is a finished tool call's output as a person reads it:
// without the wrappers its agent put around what the tool printed
// (Event.Display, which the parser fills), else as it came.
func ToolOutput(ev *streaming.Event) string {
	if ev.Display != "" {
		return ev.Display
	}
	return ev.Output
}

// OneLine folds a text onto one line.
func OneLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		first := strings.TrimSpace(s[:i])
		if first == "" {
			return strings.Join(strings.Fields(s), " ")
		}
		return first + " …"
	}
	return s
}

// Duration formats milliseconds as 850ms, 1.2s, 2m03s, 1h02m.
func Duration(ms int64) string { return string(AppendDuration(nil, ms)) }

// AppendDuration appends Duration(ms) to b.
func AppendDuration(b []byte, ms int64) []byte {
	switch {
	case ms < 1000:
		return append(strconv.AppendInt(b, ms, 10), "ms"...)
	case ms < 60_000:
		return append(strconv.AppendFloat(b, float64(ms)/1000, 'f', 1, 64), 's')
	case ms < 3_600_000:
		return append(append2Digits(append(strconv.AppendInt(b, ms/60_000, 10), 'm'), ms/1000%60), 's')
	}
	return append(append2Digits(append(strconv.AppendInt(b, ms/3_600_000, 10), 'h'), ms/60_000%60), 'm')
}

// append2Digits appends n (0 to 99) as two digits.
func append2Digits(b []byte, n int64) []byte {
	return append(b, byte('0'+n/10), byte('0'+n%10))
}

// StatusMark is the symbol of a tool call's outcome.
func StatusMark(st streaming.ToolStatus) string {
	switch st {
	case streaming.ToolOK:
		return "✓"
	case streaming.ToolError:
		return "✗"
	case streaming.ToolDeclined:
		return "⊘"
	case streaming.ToolIncomplete:
		return "…"
	}
	return "▸"
}

// PlanMark is the symbol of a plan entry's status (one of streaming's
// Plan* statuses).
func PlanMark(status string) string {
	switch status {
	case streaming.PlanCompleted:
		return "☑"
	case streaming.PlanInProgress:
		return "◐"
	case streaming.PlanCancelled:
		return "☒"
	}
	return "☐"
}

// TruncateRunes clips s to n runes, the last one an ellipsis.
func TruncateRunes(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	c := 0
	for i := range s {
		if c == n-1 {
			return s[:i] + "…"
		}
		c++
	}
	return s
}

// OriginLabel is how a result line names what began a run that no prompt
// began (Event.Origin), "" for a prompted run. It may hold the agent's
// own word: each format escapes it.
func OriginLabel(origin string) string {
	switch origin {
	case "":
		return ""
	case streaming.OriginClear:
		return "after /clear"
	case streaming.OriginTaskNotification:
		return "started by a task notification"
	}
	return "started by " + OneLine(origin)
}

// ModelsLabel names the models that answered a run, the main one first:
// "gemini-3-flash-preview + gemini-2.5-flash-lite". Agent text: each
// format escapes it.
func ModelsLabel(models []string) string {
	return OneLine(strings.Join(models, " + "))
}

// Tokens formats a token count: 950, 12.3k, 1.2M.
func Tokens(n int64) string { return string(AppendTokens(nil, n)) }

// AppendTokens appends Tokens(n) to b.
func AppendTokens(b []byte, n int64) []byte {
	switch {
	case n < 1000:
		return strconv.AppendInt(b, n, 10)
	case n < 1_000_000:
		return append(strconv.AppendFloat(b, float64(n)/1000, 'f', 1, 64), 'k')
	}
	return append(strconv.AppendFloat(b, float64(n)/1e6, 'f', 1, 64), 'M')
}

// Cost formats dollars: $0.0123, $1.23.
func Cost(usd float64) string { return string(AppendCost(nil, usd)) }

// AppendCost appends Cost(usd) to b.
func AppendCost(b []byte, usd float64) []byte {
	if usd < 1 {
		return strconv.AppendFloat(append(b, '$'), usd, 'f', 4, 64)
	}
	return strconv.AppendFloat(append(b, '$'), usd, 'f', 2, 64)
}

// KnownCost reports that u says what the run cost: an agent that has no
// figure reports none or zero ("$0.0000" says nothing). The json output
// keeps the figure as it came.
func KnownCost(u *streaming.Usage) bool { return u.HasCost && u.CostUSD > 0 }

// FactSep separates the facts of a line.
const FactSep = " · "

// SplitFacts is the facts AppendFacts wrote in b, one string each.
// (No fact holds the separator.)
func SplitFacts(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(string(b[len(FactSep):]), FactSep)
}

// AppendFacts appends the facts of a result line, each after
// FactSep: the duration and turns (when positive) and usage u (if any).
func AppendFacts(b []byte, durationMS int64, turns int, u *streaming.Usage) []byte {
	if durationMS > 0 {
		b = AppendDuration(append(b, FactSep...), durationMS)
	}
	if turns > 0 {
		b = strconv.AppendInt(append(b, FactSep...), int64(turns), 10)
		b = append(append(b, " turn"...), Plural(turns)...)
	}
	if u != nil {
		if u.Total() > 0 {
			b = AppendTokens(append(b, FactSep...), u.InputTokens)
			if c := u.CacheReadTokens + u.CacheWriteTokens; c > 0 {
				b = append(AppendTokens(append(b, " + "...), c), " cached"...)
			}
			b = append(AppendTokens(append(b, " in, "...), u.OutputTokens), " out"...)
		}
		if KnownCost(u) {
			b = AppendCost(append(b, FactSep...), u.CostUSD)
		}
	}
	return b
}

// Plural is "s" unless n is 1.
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Figures are the run's duration, turns, tokens and cost, as the plain
// renderer's result line shows them. Without a result, the duration is
// the span of the event times when the agent gives them.
func Figures(run *streaming.Run) []string {
	return SplitFacts(AppendFacts(nil, run.Duration(), run.Turns, run.Usage))
}
