package render

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/sanitize"
)

// Escaping for markdown: inline text, code spans, prose (raw HTML and
// mentions defused), fences.

// clean shows control characters visibly.
func clean(s string) string { return sanitize.String(s, sanitize.Options{}) }

// cleanOutput is clean for tool output, whose SGR colour is left out.
func cleanOutput(s string) string { return sanitize.String(s, sanitize.Options{SGR: sanitize.DropSGR}) }

// fenceOf returns the fence a line opens or closes (up to three spaces,
// then three or more backticks or tildes), or "".
func fenceOf(s string) string {
	t := s
	for i := 0; i < 3 && strings.HasPrefix(t, " "); i++ {
		t = t[1:]
	}
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && strings.Contains(t[n:], "`")) {
		return ""
	}
	return t[:n]
}

// codeSpan returns s as inline code: one line, delimited by a backtick
// run longer than any inside it.
func codeSpan(s string) string {
	s = clean(eventtext.OneLine(s))
	if s == "" {
		return ""
	}
	d := strings.Repeat("`", longestBackticks(s)+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return d + s + d
}

// inline escapes a short text (a name, a reason) for a markdown line: one
// line (a newline in a tool name must not end a list item or a table row).
func inline(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = strings.Join(strings.Fields(s), " ")
	}
	s = clean(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '~', '#':
			b.WriteByte('\\')
		case '@':
			b.WriteString("@\u200b")
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// escapeProse makes a line of prose safe to embed: outside code spans,
// "<" before a tag-like character becomes "&lt;" (no raw HTML, no
// comments that hide the rest) and "@name" gets a zero-width space (no
// mentions). Markdown itself (emphasis, links, lists) is kept.
func escapeProse(s string) string {
	if strings.IndexByte(s, '<') < 0 && strings.IndexByte(s, '@') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c == '`' {
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			if end := closingRun(s, i+n, n); end >= 0 {
				b.WriteString(s[i:end])
				i = end
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		if c == '<' && i+1 < len(s) && tagStart(s[i+1]) {
			b.WriteString("&lt;")
			i++
			continue
		}
		if c == '@' && i+1 < len(s) && isWordByte(s[i+1]) && (i == 0 || !isWordByte(s[i-1])) {
			b.WriteString("@\u200b")
			i++
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// closingRun finds a run of exactly n backticks from i and returns the
// index after it, or -1.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return j
		}
		i = j
	}
	return -1
}

func tagStart(c byte) bool {
	return c == '/' || c == '!' || c == '?' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}
