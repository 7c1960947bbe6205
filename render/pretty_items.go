package render

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/sanitize"
)

// item is one entry of the live renderer's sequence: a text or thinking
// block, a tool call, or finished lines. Items reach the scrollback in
// order, each once it and every item before it is complete (sequential
// completion, as docs/formats/cline.md tells of Kilo's CLI).
type item interface {
	// settle folds in what arrived since the last frame (streaming text).
	settle(r *prettyRenderer)
	// complete reports that the item will not change any more.
	complete() bool
	// commit appends the rows that are final: all of them once the item
	// is complete, the finished rows of a text still streaming.
	commit(r *prettyRenderer, dst []row) []row
	// live appends the rows the live region shows for the item.
	live(r *prettyRenderer, dst []row) []row
}

// indentW is the indent of a nesting depth, capped so some room is left.
func (r *prettyRenderer) indentW(depth int) int {
	return min(2*depth, max(0, r.scr.width-20))
}

// expandTabs turns the tabs of s into spaces up to the next multiple of
// 8 cells of their line. Terminals would move the cursor instead, which
// row counting cannot follow. Text without tabs is s itself.
func expandTabs(s string) string {
	i := strings.IndexByte(s, '\t')
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	col := 0
	for ; i >= 0; i = strings.IndexByte(s, '\t') {
		b = append(b, s[:i]...)
		seg := s[:i]
		if j := strings.LastIndexByte(seg, '\n'); j >= 0 {
			col, seg = 0, seg[j+1:] // a new line
		}
		col += cells(seg)
		n := 8 - col%8
		for k := 0; k < n; k++ {
			b = append(b, ' ')
		}
		col += n
		s = s[i+1:]
	}
	return string(append(b, s...))
}

// heldBack is how many bytes at the end of b must wait for more input: an
// unfinished UTF-8 sequence, or a carriage return that may start a CRLF.
func heldBack(b []byte) int {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return 1
	}
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return len(b) - i
			}
			return 0
		}
	}
	return 0
}

// thinkItem is a thinking block shown as one line: a live tail of the
// text while it streams, then "✻ thought for 3.2s: first words…".
type thinkItem struct {
	depth      int
	sub        *subLabel
	start, end time.Time
	head       []byte // the first bytes, for the summary
	tail       []byte // the last bytes, for the live line
	n          int    // characters
	bytes      int
	closed     bool
}

func (t *thinkItem) add(s string) {
	t.n += utf8.RuneCountInString(s)
	t.bytes += len(s)
	if len(t.head) < 400 {
		t.head = append(t.head, s[:min(len(s), 400-len(t.head))]...)
	}
	t.tail = append(t.tail, s...)
	if len(t.tail) > 4096 {
		t.tail = t.tail[:copy(t.tail, t.tail[len(t.tail)-1024:])]
	}
}

func (t *thinkItem) settle(*prettyRenderer) {}
func (t *thinkItem) complete() bool         { return t.closed }

// oneLineText folds text onto one line for a summary: sanitised, runs of
// white space as one space, a cut rune at the start dropped.
func oneLineText(b []byte) string {
	for len(b) > 0 && !utf8.RuneStart(b[0]) {
		b = b[1:]
	}
	return strings.Join(strings.Fields(sanitize.String(string(b), sanitize.Options{})), " ")
}

func (t *thinkItem) commit(r *prettyRenderer, dst []row) []row {
	if !t.closed {
		return dst
	}
	return t.finalRow(r, dst)
}

func (t *thinkItem) finalRow(r *prettyRenderer, dst []row) []row {
	iw := r.indentW(t.depth)
	head := "✻ thinking"
	if d := t.end.Sub(t.start); d >= time.Second {
		head += " for " + eventtext.Duration(d.Milliseconds())
	}
	// "✻ thinking for 3.2s: first words … (1.2k chars)", as plain says it:
	// the words cut to fit, the count whole; a thought shown whole needs
	// no count.
	suffix := " (" + eventtext.Tokens(int64(t.n)) + " chars)"
	text := head
	if s := oneLineText(t.head); s != "" {
		room := r.scr.width - iw - cells(head) - 2
		if t.bytes == len(t.head) && cells(s) <= room {
			return wrapStyled(dst, r.p.Dim(text+": "+s), r.scr.width-iw, strings.Repeat(" ", iw), strings.Repeat(" ", iw), iw, true)
		}
		if t.bytes > len(t.head) {
			s += " …"
		}
		if room -= cells(suffix); room >= 8 {
			text += ": " + truncCells(s, room)
		}
	}
	text += suffix
	ind := strings.Repeat(" ", iw)
	return wrapStyled(dst, r.p.Dim(text), r.scr.width-iw, ind, ind, iw, true)
}

func (t *thinkItem) live(r *prettyRenderer, dst []row) []row {
	if t.closed {
		return t.finalRow(r, dst)
	}
	iw := r.indentW(t.depth)
	tail := oneLineText(t.tail)
	text := "✻ thinking…"
	if tail != "" {
		text = "✻ " + truncLeft(tail, max(8, r.scr.width-iw-2))
	}
	return append(dst, row{s: strings.Repeat(" ", iw) + r.p.Dim(text), w: iw + cells(text)})
}

// linesItem is finished output: lines that are complete when made.
type linesItem struct {
	lines []logLine
	sub   *subLabel
}

// logLine is one line of finished output, wrapped at the width of the
// frame that commits it.
type logLine struct {
	depth int
	s     string // styled, sanitised
	hang  int    // more indent on the rows after the first
}

func (l *linesItem) settle(*prettyRenderer) {}
func (l *linesItem) complete() bool         { return true }

func (l *linesItem) commit(r *prettyRenderer, dst []row) []row { return l.live(r, dst) }

func (l *linesItem) live(r *prettyRenderer, dst []row) []row {
	for _, ln := range l.lines {
		dst = r.styledRows(dst, ln.depth, ln.s, ln.hang)
	}
	return dst
}

// headerItem holds the place of a tool call that started work of its own
// (a subagent): the call's running line while it waits, its header once
// committed, with its work after it and its done line after that.
type headerItem struct{ t *toolItem }

func (h *headerItem) settle(*prettyRenderer) {}
func (h *headerItem) complete() bool         { return true }

func (h *headerItem) commit(r *prettyRenderer, dst []row) []row {
	t := h.t
	if !t.ended {
		t.opened = true
		r.opened = append(r.opened, t)
	}
	return t.headerRow(r, dst)
}

func (h *headerItem) live(r *prettyRenderer, dst []row) []row {
	if h.t.ended {
		return h.t.headerRow(r, dst)
	}
	return h.t.runningRows(r, dst)
}
