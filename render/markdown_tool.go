package render

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/streaming"
)

// The markdown renderer's tool calls: a list item each, its output or the
// diff of its file edits in a fence under it.

// tool writes a finished tool call as a list item with its output, or
// the diff of the file edits it made.
func (m *markdownRenderer) tool(ev *streaming.Event, edits []streaming.FileEdit) {
	diff, add, del, showDiff := editDiff(ev.Status, edits, ev.Subject)
	m.begin(elemList)
	line := "- " + eventtext.StatusMark(ev.Status) + " "
	if ev.Parent != "" {
		line = "- ↳ " + eventtext.StatusMark(ev.Status) + " "
	}
	line += "**" + inline(ev.Name) + "**"
	if arg := eventtext.KeyArg(ev); arg != "" {
		line += " " + codeSpan(eventtext.TruncateRunes(arg, 200))
	}
	var facts []string
	if showDiff {
		facts = append(facts, string(appendDiffStat(nil, add, del)))
	}
	if ev.ExitCode != nil {
		facts = append(facts, fmt.Sprintf("exit %d", *ev.ExitCode))
	}
	if ev.DurationMS > 0 {
		facts = append(facts, eventtext.Duration(ev.DurationMS))
	}
	if ev.Status != streaming.ToolOK && ev.Status != streaming.ToolError && ev.Status != "" {
		facts = append(facts, string(ev.Status))
	}
	if len(facts) > 0 {
		line += " · " + strings.Join(facts, " · ")
	}
	m.w.WriteString(line + "\n")
	if m.cfg.Tools == ToolsNone {
		return
	}
	n := m.cfg.ToolLines
	if m.cfg.Tools == ToolsFull {
		n = 0
	}
	var head, tail []string
	var omitted int
	if showDiff {
		// A diff gets twice the rows, as in pretty and plain.
		ls := make([]string, len(diff))
		for i, l := range diff {
			ls[i] = clean(l.Text)
		}
		head, omitted, tail = previewLines(ls, 2*n)
	} else {
		// Only the lines shown are split out and cleaned.
		head, omitted, tail = previewCleaned(eventtext.ToolOutput(ev), n, cleanOutput)
	}
	if len(head) == 0 && len(tail) == 0 {
		return
	}
	body := append([]string(nil), head...)
	if omitted > 0 {
		body = append(body, fmt.Sprintf("… %d more line%s …", omitted, eventtext.Plural(omitted)))
	}
	body = append(body, tail...)
	info := ""
	if showDiff {
		info = "diff"
	}
	m.fenced("  ", info, body)
}

// fenced writes lines in a code fence, indented, its info string info
// (the language): the fence is longer than any run of backticks in them,
// so nothing inside can close it.
func (m *markdownRenderer) fenced(indent, info string, lines []string) {
	fence := fence(strings.Join(lines, "\n"))
	m.w.WriteString(indent + fence + info + "\n")
	for _, l := range lines {
		m.w.WriteString(strings.TrimRight(indent+l, " \t") + "\n")
	}
	m.w.WriteString(indent + fence + "\n")
}

// fence returns a backtick fence longer than any backtick run in s (at
// least three).
func fence(s string) string {
	return strings.Repeat("`", max(3, longestBackticks(s)+1))
}

// longestBackticks is the length of the longest run of backticks in s.
func longestBackticks(s string) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}
