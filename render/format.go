package render

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/streaming"
	"github.com/tidwall/gjson"
)

// keyArgFields are the input fields that say what a tool call is about,
// most telling first.
var keyArgFields = [...]string{
	"command", "cmd", "file_path", "filePath", "path", "notebook_path", "pattern", "url", "query",
	"description", "prompt", "subject", "name", "target_file", "directory", "dir",
}

// KeyArg is the one argument that says what a tool call does: the command,
// the path, the pattern. It falls back to the compact input.
func KeyArg(ev *streaming.Event) string {
	in := strings.TrimSpace(ev.Input)
	if in == "" || in == "{}" || in == "null" {
		return oneLine(ev.Title)
	}
	v := gjson.Parse(in)
	if v.IsObject() {
		return keyArgObject(ev, v)
	}
	if v.Type == gjson.String {
		return oneLine(v.Str)
	}
	return oneLine(in)
}

// keyArgObject is KeyArg for an object input, read in one pass
// (a Get per candidate field would scan the input sixteen times).
func keyArgObject(ev *streaming.Event, v gjson.Result) string {
	var found [len(keyArgFields)]gjson.Result // the first of each name, as Get finds
	var first string
	v.ForEach(func(k, val gjson.Result) bool {
		if first == "" && val.Type == gjson.String && val.Str != "" {
			first = val.Str
		}
		for i, name := range keyArgFields {
			if k.Str == name {
				if !found[i].Exists() {
					found[i] = val
				}
				break
			}
		}
		return true
	})
	for _, f := range found {
		switch {
		case f.Type == gjson.String && f.Str != "":
			return oneLine(f.Str)
		case f.IsArray():
			var parts []string
			for _, p := range f.Array() {
				parts = append(parts, p.String())
			}
			if len(parts) > 0 {
				return oneLine(strings.Join(parts, " "))
			}
		}
	}
	if ev.Title != "" {
		return oneLine(ev.Title)
	}
	if first != "" {
		return oneLine(first)
	}
	return oneLine(v.Raw)
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
	// Lines drops one trailing newline; the sanitiser drops the CR of a
	// CRLF.
	if strings.HasSuffix(out, "\n") {
		out = strings.TrimSuffix(out[:len(out)-1], "\r")
		if out == "" {
			return nil, 0, nil
		}
	}
	if out == "" {
		return nil, 0, nil
	}
	total := strings.Count(out, "\n") + 1
	if n <= 0 || total <= n {
		return cleanLines(strings.Split(out, "\n"), clean), 0, nil
	}
	h := (n + 1) / 2
	t := n - h
	head = make([]string, 0, h)
	rest := out
	for range h {
		i := strings.IndexByte(rest, '\n')
		head = append(head, rest[:i])
		rest = rest[i+1:]
	}
	tail = make([]string, t)
	for k := t - 1; k >= 0; k-- {
		i := strings.LastIndexByte(rest, '\n')
		tail[k] = rest[i+1:]
		rest = rest[:i]
	}
	// Every head line ends before a LF; so does every tail line but the
	// last (whose LF, if any, was trimmed above).
	for i := range head {
		head[i] = clean(strings.TrimSuffix(head[i], "\r"))
	}
	for i := range tail {
		if i < len(tail)-1 {
			tail[i] = strings.TrimSuffix(tail[i], "\r")
		}
		tail[i] = clean(tail[i])
	}
	return head, total - n, tail
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
func Duration(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	case ms < 60_000:
		return fmt.Sprintf("%.1fs", float64(ms)/1000)
	case ms < 3_600_000:
		return fmt.Sprintf("%dm%02ds", ms/60_000, ms/1000%60)
	}
	return fmt.Sprintf("%dh%02dm", ms/3_600_000, ms/60_000%60)
}

// Tokens formats a token count: 950, 12.3k, 1.2M.
func Tokens(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d", n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

// Cost formats dollars: $0.0123, $1.23.
func Cost(usd float64) string {
	if usd < 1 {
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

// ResultFacts is the summary of a run: duration, turns, tokens, cost.
func ResultFacts(res *streaming.Event, fallback *streaming.Usage) []string {
	var facts []string
	if res != nil && res.DurationMS > 0 {
		facts = append(facts, Duration(res.DurationMS))
	}
	if res != nil && res.Turns > 0 {
		facts = append(facts, fmt.Sprintf("%d turn%s", res.Turns, plural(res.Turns)))
	}
	u := fallback
	if res != nil && res.Usage != nil {
		u = res.Usage
	}
	if u != nil {
		if t := u.Total(); t > 0 {
			in := Tokens(u.InputTokens)
			if c := u.CacheReadTokens + u.CacheWriteTokens; c > 0 {
				in += " + " + Tokens(c) + " cached"
			}
			facts = append(facts, fmt.Sprintf("%s in, %s out", in, Tokens(u.OutputTokens)))
		}
		if u.HasCost {
			facts = append(facts, Cost(u.CostUSD))
		}
	}
	return facts
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

// PlanMark is the symbol of a plan entry's status.
func PlanMark(status string) string {
	switch status {
	case "completed", "done", "complete":
		return "☑"
	case "in_progress", "in-progress", "active", "running":
		return "◐"
	case "cancelled", "canceled", "failed":
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
