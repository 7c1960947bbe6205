package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/streaming"
)

// KeyArg is the one argument that says what a tool call does, on one
// line: the subject the parser found (its command, path, pattern), else
// the title.
func KeyArg(ev *streaming.Event) string {
	if ev.Subject != "" {
		return oneLine(ev.Subject)
	}
	return oneLine(ev.Title)
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

// oneLine folds a text onto one line.
func oneLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		first := strings.TrimSpace(s[:i])
		if first == "" {
			return strings.Join(strings.Fields(s), " ")
		}
		return first + " …"
	}
	return s
}

// Lines splits output into lines, dropping one trailing newline.
func Lines(s string) []string {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// Preview is the head and tail of output lines: n lines at most, with the
// number left out between them.
func Preview(lines []string, n int) (head []string, omitted int, tail []string) {
	if n <= 0 || len(lines) <= n {
		return lines, 0, nil
	}
	h := (n + 1) / 2
	t := n - h
	return lines[:h], len(lines) - n, lines[len(lines)-t:]
}

// PreviewText is Preview(Lines(clean(out)), n) without cleaning or
// splitting the lines that are left out: only the head and tail lines are
// found (from each end) and cleaned. clean must turn a CR before a LF into
// nothing and keep every LF (as the sanitiser does).
func PreviewText(out string, n int, clean func(string) string) (head []string, omitted int, tail []string) {
	lines, h, omitted := previewText(nil, out, n, clean)
	if omitted == 0 {
		return lines, 0, nil
	}
	return lines[:h:h], omitted, lines[h:]
}

// previewText is PreviewText with the head and tail lines one after the
// other in lines, the first h of them the head, in buf's storage (a
// buffer to reuse).
func previewText(buf []string, out string, n int, clean func(string) string) (lines []string, h, omitted int) {
	// Lines drops one trailing newline; the sanitiser drops the CR of a
	// CRLF.
	if strings.HasSuffix(out, "\n") {
		out = strings.TrimSuffix(out[:len(out)-1], "\r")
		if out == "" {
			return nil, 0, 0
		}
	}
	if out == "" {
		return nil, 0, 0
	}
	lines = buf[:0]
	total := strings.Count(out, "\n") + 1
	if n <= 0 || total <= n {
		for {
			i := strings.IndexByte(out, '\n')
			if i < 0 {
				break
			}
			lines = append(lines, out[:i])
			out = out[i+1:]
		}
		lines = append(lines, out)
		return cleanLines(lines, clean), len(lines), 0
	}
	h = (n + 1) / 2
	for range h {
		i := strings.IndexByte(out, '\n')
		lines = append(lines, out[:i])
		out = out[i+1:]
	}
	lines = append(lines, make([]string, n-h)...)
	for k := n - 1; k >= h; k-- {
		i := strings.LastIndexByte(out, '\n')
		lines[k] = out[i+1:]
		out = out[:i]
	}
	// Every head line ends before a LF; so does every tail line but the
	// last (whose LF, if any, was trimmed above).
	for i := range lines {
		if i < h || i < n-1 {
			lines[i] = strings.TrimSuffix(lines[i], "\r")
		}
		lines[i] = clean(lines[i])
	}
	return lines, h, total - n
}

// cleanLines cleans lines split at LF, each of which but the last ended
// before a LF.
func cleanLines(lines []string, clean func(string) string) []string {
	for i, l := range lines {
		if i < len(lines)-1 {
			l = strings.TrimSuffix(l, "\r")
		}
		lines[i] = clean(l)
	}
	return lines
}

// Duration formats milliseconds as 850ms, 1.2s, 2m03s, 1h02m.
func Duration(ms int64) string { return string(appendDuration(nil, ms)) }

func appendDuration(b []byte, ms int64) []byte {
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

// Tokens formats a token count: 950, 12.3k, 1.2M.
func Tokens(n int64) string { return string(appendTokens(nil, n)) }

func appendTokens(b []byte, n int64) []byte {
	switch {
	case n < 1000:
		return strconv.AppendInt(b, n, 10)
	case n < 1_000_000:
		return append(strconv.AppendFloat(b, float64(n)/1000, 'f', 1, 64), 'k')
	}
	return append(strconv.AppendFloat(b, float64(n)/1e6, 'f', 1, 64), 'M')
}

// Cost formats dollars: $0.0123, $1.23.
func Cost(usd float64) string { return string(appendCost(nil, usd)) }

func appendCost(b []byte, usd float64) []byte {
	if usd < 1 {
		return strconv.AppendFloat(append(b, '$'), usd, 'f', 4, 64)
	}
	return strconv.AppendFloat(append(b, '$'), usd, 'f', 2, 64)
}

// knownCost reports that u says what the run cost: an agent that has no
// figure reports none or zero ("$0.0000" says nothing). The json output
// keeps the figure as it came.
func knownCost(u *streaming.Usage) bool { return u.HasCost && u.CostUSD > 0 }

// factSep separates the facts of a line.
const factSep = " · "

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
	return "started by " + oneLine(origin)
}

// ModelsLabel names the models that answered a run, the main one first:
// "gemini-3-flash-preview + gemini-2.5-flash-lite". Agent text: each
// format escapes it.
func ModelsLabel(models []string) string {
	return oneLine(strings.Join(models, " + "))
}

// splitFacts is the facts appendResultFacts wrote in b, one string each.
// (No fact holds the separator.)
func splitFacts(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(string(b[len(factSep):]), factSep)
}

// appendResultFacts appends the facts ResultFacts gives, each after
// factSep: the duration and turns (when positive) and usage u (if any).
func appendResultFacts(b []byte, durationMS int64, turns int, u *streaming.Usage) []byte {
	if durationMS > 0 {
		b = appendDuration(append(b, factSep...), durationMS)
	}
	if turns > 0 {
		b = strconv.AppendInt(append(b, factSep...), int64(turns), 10)
		b = append(append(b, " turn"...), plural(turns)...)
	}
	if u != nil {
		if u.Total() > 0 {
			b = appendTokens(append(b, factSep...), u.InputTokens)
			if c := u.CacheReadTokens + u.CacheWriteTokens; c > 0 {
				b = append(appendTokens(append(b, " + "...), c), " cached"...)
			}
			b = append(appendTokens(append(b, " in, "...), u.OutputTokens), " out"...)
		}
		if knownCost(u) {
			b = appendCost(append(b, factSep...), u.CostUSD)
		}
	}
	return b
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
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
