package render

import (
	"bytes"
	"slices"
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/mdterm"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/agentfmt/agentfmt/internal/view"
)

// Limits that keep a text block's cost linear in its length and its
// memory bounded, whatever its shape.
const (
	// liveMDMax is the largest open block rendered as markdown in the live
	// region each frame; a larger one shows the plain tail of its text.
	liveMDMax = 4 << 10
	// blockMax is the most text an open block holds: a longer paragraph or
	// code block is rendered in pieces, each cut at a line's end.
	blockMax = 64 << 10
	// lineMax is the longest line held: a longer one is cut at a break
	// opportunity (a space) as if it ended there.
	lineMax = 64 << 10
)

// textItem is a block of assistant text, a user prompt echo, or thinking
// shown in full. Handle only appends to pend; each frame settles pend into
// whole lines. Assistant text and thinking are markdown: complete lines
// gather into the open block (a paragraph, a list, a table, a fenced code
// block), and each block is rendered (internal/mdterm) once it is complete,
// so the cost stays linear; the open block and the partial line are shown
// in the live region. A prompt echo is wrapped line by line.
type textItem struct {
	depth int
	sub   *subLabel // the subagent it is of, if any (sublabel.go)
	user  bool      // a user prompt echo: "› " before its first line
	think bool      // thinking shown in full: "┆ " before each row

	pend  []byte // raw text not yet settled
	recv  int    // bytes received, and newlines among them (for crowd)
	nl    int
	line  []byte // the current partial line, sanitised
	block []byte // the complete lines of the open block, sanitised
	blank bool   // the open block ends in a blank line
	est   int    // rows the open block takes, about
	fence mdterm.Fence
	inFence,
	fenceCont bool // the open fence block continues one already shown in part
	lines int // lines ended (prompt echo: the first gets the "› ")
	// promptFirst: the prompt lines gathered in block begin with its
	// first line.
	promptFirst bool
	fold        *promptFold // a prompt: its lines past a screenful are folded

	chunks []chunk  // rendered pieces not yet committed
	nOut   int      // pieces made
	shown  struct { // the open block's rows as last laid out
		n, width, lines int
		rows            []row
	}

	closed, settled bool
}

// chunk is a finished piece of the text: its rows, made at a width and
// made again (from src) if the terminal's width changes before it is
// committed.
type chunk struct {
	src   string
	kind  uint8 // chunkMD, chunkCode, chunkPrompt
	fence mdterm.Fence
	open  bool // code: the piece starts the block
	close bool // code: the piece ends it
	first bool // prompt: the first line
	sep   bool // an empty row before it
	rows  []row
	width int
}

const (
	chunkMD uint8 = iota
	chunkCode
	chunkPrompt
)

func (t *textItem) complete() bool { return t.settled }

func (t *textItem) settle(r *prettyRenderer) {
	if t.settled {
		return
	}
	if len(t.pend) > 0 {
		data := t.pend
		keep := 0
		if !t.closed {
			keep = heldBack(data)
		}
		work := data[:len(data)-keep]
		if i := bytes.LastIndexByte(work, '\n'); t.user && t.fold == nil && i >= 0 {
			// A prompt's whole lines go to block at once (see endLine).
			if len(t.block) == 0 {
				t.promptFirst = t.lines == 0
			}
			t.block = slices.Grow(t.block, len(t.line)+i+1)
			t.block = append(t.block, t.line...)
			t.block = sanitize.Append(t.block, view.String(work[:i+1]), sanitize.Options{})
			t.line = t.line[:0]
			t.lines += bytes.Count(work[:i+1], []byte{'\n'})
			work = work[i+1:]
		}
		for len(work) > 0 {
			i := bytes.IndexByte(work, '\n')
			if i < 0 {
				t.line = sanitize.Append(t.line, view.String(work), sanitize.Options{})
				break
			}
			t.line = sanitize.Append(t.line, view.String(bytes.TrimSuffix(work[:i], []byte{'\r'})), sanitize.Options{})
			t.endLine(r)
			work = work[i+1:]
		}
		t.pend = t.pend[:copy(t.pend, data[len(data)-keep:])]
		for len(t.line) > lineMax {
			t.cutLine(r)
		}
	}
	if t.closed && len(t.line) > 0 {
		t.endLine(r)
	}
	if t.closed && t.fold != nil {
		t.endFold(r)
	}
	t.flushPrompt()
	if t.closed {
		t.flush(r, true)
		t.settled = true
	}
}

// cutLine ends a line too long to hold at its last space (or at lineMax).
func (t *textItem) cutLine(r *prettyRenderer) {
	cut := bytes.LastIndexByte(t.line[:lineMax], ' ') + 1
	if cut <= 0 {
		cut = lineMax
		for cut > 0 && cut < len(t.line) && t.line[cut]&0xc0 == 0x80 {
			cut--
		}
	}
	rest := string(t.line[cut:])
	t.line = t.line[:cut]
	t.endLine(r)
	t.line = append(t.line, rest...)
}

// endLine files the current line, complete, into the open block.
func (t *textItem) endLine(r *prettyRenderer) {
	if t.user {
		if t.fold != nil && !t.fold.add(view.String(t.line), promptRows(view.String(t.line), t.avail(r))) {
			// Held: the prompt may be folded.
			t.line = t.line[:0]
			t.lines++
			return
		}
		// A prompt's lines gather in block and become one chunk for
		// all the lines a frame settles (flushPrompt).
		if len(t.block) == 0 {
			t.promptFirst = t.lines == 0
		}
		t.block = append(append(t.block, t.line...), '\n')
		if len(t.block) > blockMax {
			t.flushPrompt()
		}
	} else {
		t.file(r, string(t.line)) // kept by fences and chunks
	}
	t.line = t.line[:0]
	t.lines++
}

// endFold puts in block what a prompt held after its head: all of it,
// or "… N more lines" and its last lines.
func (t *textItem) endFold(r *prettyRenderer) {
	omitted, rest := t.fold.end()
	if len(t.block) == 0 {
		t.promptFirst = false
	}
	if omitted > 0 {
		t.block = append(append(t.block, r.p.Dim(moreLines(omitted))...), '\n')
	}
	for _, l := range rest {
		t.block = append(append(t.block, l...), '\n')
	}
}

// flushPrompt makes the prompt lines gathered in block a chunk: each
// line ends in a newline, so each is a row (or rows) of its own.
func (t *textItem) flushPrompt() {
	if !t.user || len(t.block) == 0 {
		return
	}
	// The chunk takes block's bytes, which nothing writes again.
	t.add(chunk{src: view.String(t.block), kind: chunkPrompt, first: t.promptFirst})
	t.block = nil
}

// file puts a complete line of markdown into the open block, or ends the
// block.
func (t *textItem) file(r *prettyRenderer, line string) {
	if t.inFence {
		if t.fence.Closes(line) {
			t.flush(r, true)
			t.inFence = false
			return
		}
		t.block = append(append(t.block, line...), '\n')
		t.grow(r, line)
		return
	}
	switch f, ok := mdterm.OpenFence(line); {
	case ok:
		t.flush(r, true)
		t.inFence, t.fence, t.fenceCont = true, f, false
		return
	case mdterm.IsBlank(line):
		if len(t.block) > 0 {
			t.blank = true
		} else if t.fenceCont {
			t.fenceCont = false // a paragraph shown in pieces ends here: an empty row before the next
		}
		return
	case mdterm.IsHeading(line):
		t.flush(r, true)
		t.block = append(t.block, line...)
		t.flush(r, true)
		return
	case t.blank && line[0] != ' ' && line[0] != '\t':
		t.flush(r, true)
	case t.blank:
		t.block = append(t.block, '\n')
	}
	t.blank = false
	t.block = append(append(t.block, line...), '\n')
	t.grow(r, line)
}

// grow counts the rows a line adds to the open block, and shows what the
// block holds when it would fill the live region (Pretty.liveFull) or holds
// blockMax bytes: the live region stays small (each frame redraws it)
// and the text goes to the scrollback as it comes. A table is kept whole
// up to blockMax, so that its columns line up.
func (t *textItem) grow(r *prettyRenderer, line string) {
	t.est += max(1, (len(line)+t.avail(r)-1)/t.avail(r))
	table := !t.inFence && len(t.block) > 0 && t.block[0] == '|'
	if len(t.block) > blockMax || !table && t.est > max(4, r.liveFull()-2) {
		t.flush(r, false)
	}
}

// flush turns the open block into a chunk. end says the block is
// complete; otherwise (a block too long to hold) what is held is shown
// and the block goes on.
func (t *textItem) flush(r *prettyRenderer, end bool) {
	if t.inFence {
		if len(t.block) == 0 && t.fenceCont && !end {
			return
		}
		c := chunk{src: string(t.block), kind: chunkCode, fence: t.fence, open: !t.fenceCont, close: end, sep: !t.fenceCont && t.nOut > 0}
		t.add(c)
		t.fenceCont = !end
		t.block = t.block[:0]
		t.est = 0
		return
	}
	if len(t.block) == 0 {
		if end {
			t.fenceCont = false // the paragraph cut in pieces ended with its last piece
		}
		return
	}
	t.add(chunk{src: string(t.block), kind: chunkMD, sep: t.nOut > 0 && !t.fenceCont})
	t.est = 0
	t.fenceCont = !end // a paragraph cut in pieces: no empty row between them
	t.block = t.block[:0]
	t.blank = false
}

func (t *textItem) add(c chunk) {
	t.chunks = append(t.chunks, c)
	t.nOut++
}

// avail is the width the text is laid out in.
func (t *textItem) avail(r *prettyRenderer) int {
	return max(r.scr.width-r.indentW(t.depth)-t.prefixW(), 8)
}

func (t *textItem) prefixW() int {
	if t.user || t.think {
		return 2
	}
	return 0
}

// prefixes are what each row starts with (the first, the others, an
// empty one): the indent of the depth, then "› " or "┆ ".
func (t *textItem) prefixes(r *prettyRenderer, first bool) (string, string, string) {
	ind := strings.Repeat(" ", r.indentW(t.depth))
	switch {
	case t.think:
		return ind + r.p.Dim("┆ "), ind + r.p.Dim("┆ "), ind + r.p.Dim("┆")
	case t.user && first:
		return ind + r.p.Blue("› "), ind + "  ", ""
	case t.user:
		return ind + "  ", ind + "  ", ""
	}
	return ind, ind, ""
}

// render lays out a chunk at the current width.
func (t *textItem) render(r *prettyRenderer, c *chunk) []row {
	w := t.avail(r)
	if c.rows != nil && c.width == r.scr.width {
		return c.rows
	}
	first, rest, empty := t.prefixes(r, c.first)
	pw := r.indentW(t.depth) + t.prefixW()
	var ls []termwrap.Line
	if c.sep {
		ls = append(ls, termwrap.Line{})
	}
	switch c.kind {
	case chunkPrompt:
		// The rows come with their prefixes.
		ls = termwrap.AppendWrapIndented(ls, expandTabs(c.src), w, first, rest)
		first, rest = "", ""
	case chunkCode:
		ls = append(ls, mdterm.CodeBlock(c.src, c.fence, w, r.p.Enabled, c.open, c.close)...)
	default:
		ls = append(ls, mdterm.Render([]byte(c.src), w, r.p.Enabled)...)
	}
	c.rows = lines2rows(c.rows[:0], ls, first, rest, empty, pw)
	c.width = r.scr.width
	return c.rows
}

func (t *textItem) commit(r *prettyRenderer, dst []row) []row {
	for i := range t.chunks {
		dst = append(dst, t.render(r, &t.chunks[i])...)
		t.chunks[i] = chunk{}
	}
	t.chunks = t.chunks[:0]
	return dst
}

func (t *textItem) live(r *prettyRenderer, dst []row) []row {
	for i := range t.chunks {
		dst = append(dst, t.render(r, &t.chunks[i])...)
	}
	if t.settled {
		return dst
	}
	if t.shown.n != len(t.block) || t.shown.width != r.scr.width || t.shown.lines != t.lines {
		t.shown.rows = t.blockRows(r, t.shown.rows[:0])
		t.shown.n, t.shown.width, t.shown.lines = len(t.block), r.scr.width, t.lines
	}
	dst = append(dst, t.shown.rows...)
	if len(t.line) > 0 && (t.fold == nil || t.fold.n < eventtext.PromptHead) {
		first, rest, empty := t.prefixes(r, t.lines == 0)
		if len(t.block) > 0 || t.inFence || t.lines > 0 {
			first = rest
		}
		b := expandTabs(string(t.line))
		w, pw := t.avail(r), r.indentW(t.depth)+t.prefixW()
		if t.inFence && r.p.Enabled {
			// Code shows indented: so does its partial line.
			first, rest, w, pw = first+"  ", rest+"  ", w-2, pw+2
		}
		ls := termwrap.Wrap(b, w)
		dst = lines2rows(dst, ls, first, rest, empty, pw)
	}
	return dst
}

// blockRows lays out the open block: as markdown while small, else the
// plain tail of its text (the region shows only its bottom rows anyway).
// It changes only when a line ends, so a frame costs little more than
// the partial line.
func (t *textItem) blockRows(r *prettyRenderer, dst []row) []row {
	if t.user || (len(t.block) == 0 && !t.inFence) {
		return dst
	}
	w := t.avail(r)
	first, rest, empty := t.prefixes(r, false)
	pw := r.indentW(t.depth) + t.prefixW()
	var ls []termwrap.Line
	if t.nOut > 0 && !t.fenceCont {
		ls = append(ls, termwrap.Line{})
	}
	switch {
	case len(t.block) <= liveMDMax && t.inFence:
		ls = append(ls, mdterm.CodeBlock(string(t.block), t.fence, w, r.p.Enabled, !t.fenceCont, false)...)
	case len(t.block) <= liveMDMax:
		// A copy: goldmark makes strings over its source without copying.
		ls = append(ls, mdterm.Render(bytes.Clone(t.block), w, r.p.Enabled)...)
	default:
		tail := string(t.block[len(t.block)-liveMDMax:])
		if i := strings.IndexByte(tail, '\n'); i >= 0 && i < len(tail)-1 {
			tail = tail[i+1:]
		}
		for len(tail) > 0 && tail[0]&0xc0 == 0x80 {
			tail = tail[1:]
		}
		for _, l := range strings.Split(strings.TrimSuffix(tail, "\n"), "\n") {
			ls = termwrap.AppendWrap(ls, expandTabs(l), w)
		}
	}
	return lines2rows(dst, ls, first, rest, empty, pw)
}
