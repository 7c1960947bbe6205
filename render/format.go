package render

import (
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/streaming"
)

// splitLines splits output into lines, dropping one trailing newline.
func splitLines(s string) []string {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// previewLines is the head and tail of output lines: n lines at most, with the
// number left out between them.
func previewLines(lines []string, n int) (head []string, omitted int, tail []string) {
	if n <= 0 || len(lines) <= n {
		return lines, 0, nil
	}
	h := (n + 1) / 2
	t := n - h
	return lines[:h], len(lines) - n, lines[len(lines)-t:]
}

// previewCleaned is Preview(Lines(clean(out)), n) without cleaning or
// splitting the lines that are left out: only the head and tail lines are
// found (from each end) and cleaned. clean must turn a CR before a LF into
// nothing and keep every LF (as the sanitiser does).
func previewCleaned(out string, n int, clean func(string) string) (head []string, omitted int, tail []string) {
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

// formatTokens formats a token count: 950, 12.3k, 1.2M.
func formatTokens(n int64) string { return string(appendTokens(nil, n)) }

func appendTokens(b []byte, n int64) []byte {
	switch {
	case n < 1000:
		return strconv.AppendInt(b, n, 10)
	case n < 1_000_000:
		return append(strconv.AppendFloat(b, float64(n)/1000, 'f', 1, 64), 'k')
	}
	return append(strconv.AppendFloat(b, float64(n)/1e6, 'f', 1, 64), 'M')
}

// formatCost formats dollars: $0.0123, $1.23.
func formatCost(usd float64) string { return string(appendCost(nil, usd)) }

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
		b = eventtext.AppendDuration(append(b, factSep...), durationMS)
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
