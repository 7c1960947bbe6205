// This file writes a markdown transcript's text: assistant text, prompt
// echoes and thinking, line by line, folded and quoted as the block asks.

package render

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/agentfmt/agentfmt/streaming"
)

// text writes assistant text, prompt echoes and thinking.
func (m *markdownRenderer) text(ev *streaming.Event) {
	id := blockID{msg: ev.Message, kind: ev.Kind, index: ev.Block}
	if !m.inBlock || id != m.cur {
		// Another block's text (messages interleaved) interrupts this one.
		m.endBlock()
		m.inBlock = true
		m.cur = id
		m.cur.msg = strings.Clone(ev.Message) // kept past Handle
		m.role, m.parent = strings.Clone(ev.Role), strings.Clone(ev.Parent)
		m.lineNo, m.blanks = 0, 0
		m.fence = ""
		m.think = thinkingSummary{}
	}
	if ev.Kind == streaming.KindThinkingDelta && m.cfg.Thinking != ThinkingFull {
		if m.cfg.Thinking == ThinkingSummary {
			m.think.add(ev.Text)
		}
		return
	}
	m.addText(ev.Text)
}

func (m *markdownRenderer) addText(s string) {
	if len(m.partial) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			m.partial = append(m.partial, s...)
			return
		}
		m.partial = append(m.partial, s[:i]...)
		m.line(view.String(m.partial)) // (line keeps nothing of it: a fold copies what it holds)
		m.partial = m.partial[:0]
		s = s[i+1:]
	}
	// Whole lines are written from s itself (textLine keeps nothing of
	// its line); only a partial line at the end is kept.
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		m.line(s[:i])
		s = s[i+1:]
	}
	m.partial = append(m.partial, s...)
}

// line writes a complete line of the block, unless it is a prompt's line
// that may be folded (held until the block ends).
func (m *markdownRenderer) line(s string) {
	if m.role == streaming.RoleUser && !m.fold.add(s, 1) {
		return
	}
	m.textLine(s)
}

// endFold writes what a prompt held after its head: all of it, or
// "… N more lines" and its last lines. (The same fold as in the terminal
// and the CI log rather than a <details>: a transcript goes into pull
// request comments, 65,536 characters at most, and job summaries, where
// a pasted prompt would crowd out the run itself.)
func (m *markdownRenderer) endFold() {
	omitted, rest := m.fold.end()
	if omitted > 0 {
		m.textLine("*" + moreLines(omitted) + "*")
	}
	for _, l := range rest {
		m.textLine(l)
	}
}

// quoted reports whether the current block is written as a quote.
func (m *markdownRenderer) quoted() bool {
	return m.parent != "" || m.role == streaming.RoleUser || m.cur.kind == streaming.KindThinkingDelta
}

func (m *markdownRenderer) textLine(s string) {
	s = clean(s)
	// Blank lines are written only between lines of the block: none
	// before its first line or after its last.
	if strings.TrimSpace(s) == "" {
		if m.lineNo > 0 {
			m.blanks++
		}
		return
	}
	for ; m.blanks > 0; m.blanks-- {
		if m.quoted() {
			m.w.WriteString(">\n")
		} else {
			m.w.WriteString("\n")
		}
	}
	if m.lineNo == 0 {
		if m.quoted() {
			m.ensureHeading(nil)
			m.begin(elemLine)
		} else {
			m.ensureHeading(nil)
			m.begin(elemText)
		}
	}
	// Fences the text opens and closes; inside one, text is left alone.
	if f := fenceOf(s); f != "" {
		switch {
		case m.fence == "":
			m.fence = strings.Clone(f) // (s is the event's, valid only now)
		case f[0] == m.fence[0] && len(f) >= len(m.fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), f[:1])) == "":
			m.fence = ""
		}
	} else if m.fence == "" {
		s = escapeProse(s)
	}
	prefix := ""
	if m.quoted() {
		prefix = "> "
		if m.lineNo == 0 {
			switch {
			case m.cur.kind == streaming.KindThinkingDelta:
				prefix += "*Thinking:* "
			case m.role == streaming.RoleUser:
				prefix += "**Prompt:** "
			}
		}
	}
	m.lineNo++
	// (s is not blank: trimming it alone is trimming prefix+s.)
	m.w.WriteString(prefix)
	m.w.WriteString(strings.TrimRight(s, " "))
	m.w.WriteByte('\n')
}

// endBlock finishes the current text block: its last line, a fence it
// left open, or the thinking summary. It is called when the session ends
// the block (block.stop) and when something else is written first.
func (m *markdownRenderer) endBlock() {
	if !m.inBlock {
		return
	}
	if len(m.partial) > 0 {
		m.line(view.String(m.partial)) // (line keeps nothing of it: a fold copies what it holds)
		m.partial = m.partial[:0]
	}
	if m.role == streaming.RoleUser {
		m.endFold()
	}
	if m.fence != "" {
		prefix := ""
		if m.quoted() {
			prefix = "> "
		}
		m.w.WriteString(prefix + m.fence + "\n")
		m.fence = ""
	}
	if m.cur.kind == streaming.KindThinkingDelta && m.cfg.Thinking == ThinkingSummary && m.think.n > 0 {
		m.ensureHeading(nil)
		m.begin(elemLine)
		m.w.WriteString("> *" + inline(strings.NewReplacer("**", "", "__", "").Replace(m.think.line(100))) + "*\n")
	}
	m.inBlock = false
	m.blanks = 0
}
