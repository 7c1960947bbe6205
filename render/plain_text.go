package render

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/mdterm"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/agentfmt/agentfmt/streaming"
)

// The plain renderer's streaming text: complete lines printed as they
// come, the unfinished last line shown on Flush, thinking summaries.

// showPartial writes what is new of the partial last line of the text block.
func (p *plainRenderer) showPartial() {
	if !p.inBlock || len(p.partial) <= p.shown ||
		(p.curKind == streaming.KindThinkingDelta && p.cfg.Thinking != ThinkingFull) ||
		(p.curUser && p.fold.n >= eventtext.PromptHead) { // a prompt's line past its head may be folded
		return
	}
	rest := view.String(p.partial[p.shown:]) // (written before partial changes)
	cut := wholeCut(rest)
	if cut == 0 {
		return
	}
	p.writeFragment(rest[:cut])
	if p.curUser {
		p.shown += cut // a prompt's line is measured whole when it ends (its fold)
		return
	}
	// What is written is let go: a line with no end (one paragraph of
	// megabytes) is held only up to partialMost, not whole.
	p.partial = p.partial[:copy(p.partial, p.partial[cut:])]
}

// partialMost is how much of an unfinished line of text plain holds
// before it writes the start of the line (as Flush does for a live
// stream): an answer of one line of megabytes is not held whole.
const partialMost = 64 << 10

// holdLine keeps text, the unfinished end of a line, or writes it when
// the line has grown past partialMost (a prompt's line is held whole: it
// may be folded). A long delta is written from itself, not copied.
func (p *plainRenderer) holdLine(text string) {
	if p.curUser || len(p.partial)+len(text) <= partialMost {
		p.partial = append(p.partial, text...)
		return
	}
	// What is held goes first, with the bytes of text that end a
	// character it ends inside of.
	for len(p.partial) > 0 && len(text) > 0 {
		n := min(len(text), utf8.UTFMax)
		p.partial = append(p.partial, text[:n]...)
		text = text[n:]
		p.showPartial()
	}
	cut := wholeCut(text)
	if cut > 0 {
		p.writeFragment(text[:cut])
	}
	p.partial = append(p.partial, text[cut:]...)
}

// writeFragment writes a piece of the unfinished line: its start, with
// the line's prefix, or more of a line already started.
func (p *plainRenderer) writeFragment(frag string) {
	if !p.lineOpen {
		prefix, shown := p.lineParts(frag)
		p.emitStart(nil, p.curDepth, prefix)
		p.w.WriteString(shown)
		p.lineOpen = true
		return
	}
	p.w.WriteString(p.fragment(frag))
}

// wholeCut is how much of s, a piece of an unfinished line, may be written
// now: whole characters only, and not a CR that may be half of a CRLF.
func wholeCut(s string) int {
	cut := len(s)
	for cut > 0 && !utf8.FullRuneInString(s[lastRuneStart(s[:cut]):cut]) {
		cut = lastRuneStart(s[:cut])
	}
	if cut > 0 && s[cut-1] == '\r' {
		cut--
	}
	return cut
}

// lastRuneStart is the index of the start of the last rune of s.
func lastRuneStart(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			return i
		}
	}
	return max(0, len(s)-1)
}

// fragment is how a piece of a line already started is shown.
func (p *plainRenderer) fragment(s string) string {
	s = p.clean(s)
	if p.curKind == streaming.KindThinkingDelta {
		return p.p.Dim(s)
	}
	return s
}

// finishShown ends a line whose start showPartial wrote: the rest of the
// partial line, then rest, then the newline.
func (p *plainRenderer) finishShown(rest string) {
	s := view.String(p.partial[p.shown:])
	if rest != "" {
		s += rest
	}
	p.w.WriteString(p.fragment(strings.TrimSuffix(s, "\r")))
	p.w.WriteByte('\n')
	if p.curUser {
		// A line of a prompt's head, shown as it came: it counts.
		p.fold.add("", promptRows(string(p.partial)+rest, p.cfg.Width-2*p.curDepth-2))
	}
	p.partial = p.partial[:0]
	p.shown = 0
	p.lineOpen = false
}

// text prints assistant text and thinking as complete lines.
func (p *plainRenderer) text(ev *streaming.Event) {
	if !p.inBlock || ev.Kind != p.curKind || ev.Block != p.curIndex || ev.Message != string(p.curMsg) {
		// Another block's text (two messages interleaved) interrupts the
		// one being printed; the session ends blocks (block.stop).
		p.endBlock()
		p.inBlock = true
		p.curMsg = append(p.curMsg[:0], ev.Message...)
		p.curKind, p.curIndex = ev.Kind, ev.Block
		p.curDepth = p.depthOf(ev.Parent)
		p.curSub = p.subOf(ev.Parent)
		p.curUser = ev.Role == streaming.RoleUser
		p.lineNo = 0
		p.thinking.reset()
		if p.curUser {
			p.fold.restart(eventtext.PromptScreen)
		}
	}
	if ev.Kind == streaming.KindThinkingDelta && p.cfg.Thinking != ThinkingFull {
		if p.cfg.Thinking == ThinkingSummary {
			p.thinking.add(ev.Text)
		}
		return
	}
	// Only the delta can hold new line ends: look for them there, and
	// print each finished line without copying what follows it.
	text := p.skipLeadingBlank(ev.Text)
	if n := p.textLines(text); n > 0 {
		text = text[n:]
	}
	skipped := false
	for {
		if p.curUser && !skipped && p.fold.full() && len(p.partial) == 0 {
			// A long prompt: only its last lines can show; the others in
			// text are counted, not split off one by one.
			skipped = true
			text = p.skipFolded(text)
		}
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		if p.lineOpen {
			p.finishShown(text[:i])
		} else if len(p.partial) == 0 {
			p.textLine(ev, text[:i])
		} else {
			p.partial = append(p.partial, text[:i]...)
			p.textLine(ev, view.String(p.partial))
			p.partial = p.partial[:0]
		}
		text = text[i+1:]
	}
	p.holdLine(text)
}

// skipLeadingBlank drops the blank lines that begin a block (OpenCode
// starts answers with "\n\n"), as pretty, markdown and -o text leave them
// out: text's lines up to the first that is not blank, while no line of
// the block has been written. A blank start still unfinished is held.
func (p *plainRenderer) skipLeadingBlank(text string) string {
	for p.lineNo == 0 && !p.lineOpen {
		i := strings.IndexByte(text, '\n')
		if i < 0 || !mdterm.IsBlank(view.String(p.partial)) || !mdterm.IsBlank(text[:i]) {
			break
		}
		p.partial = p.partial[:0]
		text = text[i+1:]
	}
	return text
}

// skipFolded counts the lines at the start of text that the last
// eventtext.PromptTail lines of text push out of the prompt's full fold, and
// returns the rest of text.
func (p *plainRenderer) skipFolded(text string) string {
	j := len(text)
	for range eventtext.PromptTail + 1 {
		if j = strings.LastIndexByte(text[:j], '\n'); j < 0 {
			return text
		}
	}
	p.fold.skip(strings.Count(text[:j+1], "\n"))
	return text[j+1:]
}

// spaces indents text lines (two per level).
const spaces = "                                "

// textLines is the fast path of text for what textLine would print
// unchanged: the complete lines at the start of text, when there is no
// partial line before them (held or written), no timestamp, no CI
// marker, nothing to sanitise in them (checked once for all) and no
// prompt (which may be folded). Assistant text at the top level is written in one piece; a
// subagent's lines get their indent as textLine gives it. It returns how
// much of text it printed.
func (p *plainRenderer) textLines(text string) int {
	if len(p.partial) > 0 || p.lineOpen || p.cfg.Timestamps || p.cfg.CI != CINone || p.curUser ||
		p.curKind != streaming.KindTextDelta || 2*p.curDepth > len(spaces) || p.curSub != nil {
		return 0
	}
	end := strings.LastIndexByte(text, '\n')
	if end < 0 {
		return 0
	}
	body := text[:end+1]
	if !sanitize.Clean(body) {
		return 0
	}
	if p.curDepth == 0 {
		p.w.WriteString(body)
		p.lineNo += strings.Count(body, "\n")
	} else {
		p.indentedLines(body)
	}
	p.printed = true
	return end + 1
}

// indentedLines writes body, complete lines of the current block, each
// with its indent as textLine gives it. The lines are put together in the
// writer's free buffer and handed over in one Write; a line that does not
// fit goes in pieces, which fill the buffer and flush it, as writing
// every line in pieces would.
func (p *plainRenderer) indentedLines(body string) {
	indent := spaces[:2*p.curDepth]
	b := p.w.AvailableBuffer()
	for len(body) > 0 {
		i := strings.IndexByte(body, '\n')
		if len(indent)+i+1 <= cap(b)-len(b) {
			b = append(append(b, indent...), body[:i+1]...)
		} else {
			p.w.Write(b)
			p.w.WriteString(indent)
			p.w.WriteString(body[:i+1])
			b = p.w.AvailableBuffer()
		}
		body = body[i+1:]
		p.lineNo++
	}
	p.w.Write(b)
}

func (p *plainRenderer) textLine(ev *streaming.Event, s string) {
	// A CRLF line end is a line end, not a carriage return to show.
	s = strings.TrimSuffix(s, "\r")
	if p.curUser && !p.fold.add(s, promptRows(s, p.cfg.Width-2*p.curDepth-2)) {
		return // held: the prompt may be folded
	}
	prefix, s := p.lineParts(s)
	p.emitPrefixed(ev, p.curDepth, prefix, s)
}

// endFold writes what a prompt held after its head: all of it, or
// "… N more lines" and its last lines.
func (p *plainRenderer) endFold() {
	omitted, rest := p.fold.end()
	if omitted > 0 {
		p.emitStart(nil, p.curDepth, "  ")
		p.buf = appendMoreLines(p.buf[:0], omitted)
		p.styledBytes(p.p.Dim, p.buf)
		p.w.WriteByte('\n')
	}
	for _, l := range rest {
		prefix, s := p.lineParts(l)
		p.emitPrefixed(nil, p.curDepth, prefix, s)
	}
}

// lineParts is the prefix and the shown form of a text line of the current
// block (or of the start of one).
func (p *plainRenderer) lineParts(s string) (prefix, shown string) {
	s = p.clean(s)
	switch {
	case p.curKind == streaming.KindThinkingDelta:
		s = p.p.Dim("┆ " + s)
	case p.curUser:
		if p.lineNo == 0 {
			prefix = p.p.Blue("› ")
		} else if s != "" {
			prefix = "  "
		}
	default:
		s = p.ci.content(s)
	}
	p.lineNo++
	return prefix, s
}

// endBlock finishes printing the current text block: its partial last
// line, or the thinking summary. It is called when the session ends the
// block (block.stop) and when something else must be printed first.
func (p *plainRenderer) endBlock() {
	if !p.inBlock {
		return
	}
	p.inBlock = false
	if p.lineOpen {
		p.finishShown("")
	} else if len(p.partial) > 0 {
		p.textLine(nil, view.String(p.partial))
		p.partial = p.partial[:0]
	}
	if p.curUser {
		p.endFold()
	}
	if p.curKind == streaming.KindThinkingDelta && p.cfg.Thinking == ThinkingSummary && p.thinking.n > 0 {
		p.emitLine(nil, p.curDepth, p.p.Dim("✻ "+p.thinking.line(p.cfg.Width-2-2*p.curDepth)))
	}
}

// thinkingSummary keeps the start of a thinking block for its one-line summary.
type thinkingSummary struct {
	head []byte
	n    int // characters of thinking seen
}

func (t *thinkingSummary) reset() {
	t.head, t.n = t.head[:0], 0
}

func (t *thinkingSummary) add(s string) {
	t.n += utf8.RuneCountInString(s)
	if len(t.head) < 400 {
		t.head = append(t.head, s[:min(len(s), 400-len(t.head))]...)
	}
}

// line is "Thinking: first words… (1.2k chars)"; a thought shown whole
// needs no count.
func (t *thinkingSummary) line(width int) string {
	text := strings.Join(strings.Fields(sanitize.String(string(t.head), sanitize.Options{})), " ")
	if text != "" && utf8.RuneCount(t.head) == t.n && utf8.RuneCountInString(text) <= max(10, width-10) {
		return "thinking: " + text
	}
	suffix := fmt.Sprintf(" (%s chars)", eventtext.Tokens(int64(t.n)))
	return "thinking: " + eventtext.TruncateRunes(text, max(10, width-10-len(suffix))) + suffix
}
