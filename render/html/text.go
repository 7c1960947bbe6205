package html

import (
	"bytes"
	"html/template"
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/mddepth"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// textItem fills the "prompt", "answer", "revision" and "thinking"
// templates.
type textItem struct {
	ID   string
	Body template.HTML
	Gist template.HTML
	Open bool
	Sub  bool
}

// longLine is the longest piece of a delta taken at once when it holds
// no line end.
const longLine = 2 << 20

// blockOf is the text block being collected in a scope, or nil.
func (r *Renderer) blockOf(parent string) *block {
	for _, b := range r.blocks {
		if b.parent == parent {
			return b
		}
	}
	return nil
}

// text collects a delta of assistant text, a prompt or thinking into the
// block of its scope, until the session ends the block (block.stop). Each
// scope (the main conversation, the work of each subagent) collects one
// block at a time: a delta of another block of that scope (messages
// interleaved) interrupts it.
func (r *Renderer) text(ev *streaming.Event) {
	if ev.Kind == streaming.KindThinkingDelta && r.cfg.Thinking == render.ThinkingNone {
		return
	}
	b := r.blockOf(ev.Parent)
	if b != nil && (b.msg != ev.Message || b.kind != ev.Kind || b.index != ev.Block) {
		r.endBlock(ev.Parent)
		b = nil
	}
	if b == nil {
		r.ensureRun()
		b = &block{msg: strings.Clone(ev.Message), kind: ev.Kind, index: ev.Block,
			role: strings.Clone(ev.Role), parent: strings.Clone(ev.Parent)}
		r.blocks = append(r.blocks, b)
	}
	limit := blockFlush
	if b.role == streaming.RoleUser {
		limit = promptFlush // kept whole to be folded
	}
	// A delta of megabytes (an answer sent whole) is taken a piece at a
	// time, each written before the next is taken: its markdown is never
	// parsed whole (docs/performance.md: the peak without it). A piece
	// ends at the first line end past limit, or after longLine without one
	// (a line holding an image is kept whole up to that).
	for text := ev.Text; len(text) > 0; {
		n := len(text)
		if n > limit {
			if i := strings.IndexByte(text[limit:min(n, max(longLine, limit+1))], '\n'); i >= 0 {
				n = limit + i + 1
			} else {
				n = min(n, max(longLine, limit))
			}
		}
		b.text = append(b.text, text[:n]...)
		text = text[n:]
		if len(b.text) >= limit {
			if n, reopen := splitPoint(b.text); n > 0 {
				piece := b.text[:n]
				if reopen != "" {
					piece = append(piece[:n:n], "\n"+fenceOnly(reopen)+"\n"...)
				}
				r.writeBlock(b, piece)
				b.text = append(append(b.text[:0], reopen...), b.text[n:]...)
			}
		}
	}
}

// splitPoint is where a long block's text may be cut and rendered in two
// pieces: after the last blank line outside a code fence (when it is in
// the second half), else after the last line end outside a fence, else
// after the last line end inside a fence (reopen is then the fence's
// opening line, to close the first piece with and begin the second),
// else after the last space (in the second half), else before the last
// character.
func splitPoint(text []byte) (n int, reopen string) {
	fence, open := "", ""
	lastBlank, lastLine, lastInFence := -1, -1, -1
	for i := 0; i < len(text); {
		j := bytes.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		l := text[i : i+j]
		next := i + j + 1
		if f := fenceOf(l); f != "" {
			switch {
			case fence == "":
				fence, open = f, string(l)
			case strings.HasPrefix(strings.TrimSpace(string(l)), fence) && len(bytes.Trim(bytes.TrimSpace(l), f[:1])) == 0:
				fence = ""
			}
		}
		if fence == "" {
			lastLine = next
			if len(bytes.TrimSpace(l)) == 0 {
				lastBlank = next
			}
		} else {
			lastInFence = next
		}
		i = next
	}
	switch {
	case lastBlank > len(text)/2:
		return lastBlank, ""
	case fence != "" && lastInFence > len(text)/2:
		return lastInFence, open + "\n"
	case lastLine > 0:
		return lastLine, ""
	case lastBlank > 0:
		return lastBlank, ""
	}
	if i := bytes.LastIndexByte(text, ' '); i >= len(text)/2 {
		return i + 1, "" // one long line: after a space, not inside a word
	}
	n = len(text) - 1
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return n, "" // before the last character: it may be incomplete
}

// fenceOnly is the fence of an opening fence line: what closes it.
func fenceOnly(open string) string {
	return fenceOf([]byte(open))
}

// fenceOf is the fence a line opens or closes (up to three spaces, then
// three or more backticks or tildes), or "".
func fenceOf(l []byte) string {
	t := l
	for k := 0; k < 3 && len(t) > 0 && t[0] == ' '; k++ {
		t = t[1:]
	}
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && bytes.IndexByte(t[n:], '`') >= 0) {
		return ""
	}
	return string(t[:n])
}

// endBlock writes the block of a scope, if one is being collected.
func (r *Renderer) endBlock(parent string) {
	for i, b := range r.blocks {
		if b.parent == parent {
			r.blocks = append(r.blocks[:i], r.blocks[i+1:]...)
			r.writeBlock(b, b.text)
			return
		}
	}
}

// endAll writes every block being collected, subagents' first.
func (r *Renderer) endAll() {
	for len(r.blocks) > 0 {
		b := r.blocks[len(r.blocks)-1]
		r.endBlock(b.parent)
	}
}

// writeBlock writes (a piece of) a text block as an item: a prompt as
// text, an answer or thinking rendered from markdown.
func (r *Renderer) writeBlock(b *block, text []byte) {
	if len(bytes.TrimSpace(text)) == 0 {
		return
	}
	s := clean(string(text))
	it := textItem{ID: r.nextID(), Sub: b.parent != ""}
	w := r.sink(b.parent)
	switch {
	case b.role == streaming.RoleUser:
		it.Body = promptBody(strings.Trim(s, "\n"))
		r.exec(w, "prompt", it)
	case b.kind == streaming.KindThinkingDelta:
		if b.gist == "" {
			b.gist = eventtext.TruncateRunes(strings.Join(strings.Fields(oneLine(strings.TrimSpace(s))), " "), 100)
			it.Gist = r.inline(b.gist)
		} else {
			b.gist = "(continued)"
			it.Gist = esc(b.gist)
		}
		it.Open = r.cfg.Thinking == render.ThinkingFull
		it.Body = r.markdown(s)
		r.exec(w, "thinking", it)
	default:
		it.Body = r.markdown(s)
		r.exec(w, "answer", it)
	}
}

// inline renders one line of markdown (a thinking block's first line, its
// gist: Codex's summaries start "**Inspecting the test**") as inline
// HTML: emphasis and code drawn, a heading's marks left out.
func (r *Renderer) inline(line string) template.HTML {
	line = strings.TrimLeft(line, "# ")
	h := strings.TrimSpace(string(r.markdown(line)))
	if p, ok := strings.CutPrefix(h, "<p>"); ok && strings.HasSuffix(p, "</p>") && !strings.Contains(p, "<p>") {
		return template.HTML(strings.TrimSuffix(p, "</p>"))
	}
	return esc(line)
}

// promptFlush is blockFlush for a prompt, which is kept whole (up to this
// size) so that a long one is folded once.
const promptFlush = 16 * blockFlush

// promptBody is a prompt's text; one longer than a screenful is folded
// as in the terminal, its middle in a collapsed <details> (… N more
// lines) between its first and last lines.
func promptBody(s string) template.HTML {
	n := strings.Count(s, "\n") + 1
	if n <= eventtext.PromptScreen {
		return esc(s)
	}
	lines := strings.SplitAfter(s, "\n")
	head := strings.Join(lines[:eventtext.PromptHead], "")
	middle := strings.Join(lines[eventtext.PromptHead:n-eventtext.PromptTail], "")
	tail := strings.Join(lines[n-eventtext.PromptTail:], "")
	omitted := n - eventtext.PromptHead - eventtext.PromptTail
	return esc(strings.TrimSuffix(head, "\n")) +
		template.HTML(`<details class="fold"><summary>… `+itoa(omitted)+` more line`+plural(omitted)+`</summary>`) +
		esc(strings.TrimSuffix(middle, "\n")) + "</details>" + esc(tail)
}

// revision writes a block's rewritten text whole.
func (r *Renderer) revision(ev *streaming.Event) {
	if ev.Kind == streaming.KindThinkingRevision && r.cfg.Thinking == render.ThinkingNone {
		return
	}
	it := textItem{ID: r.nextID(), Sub: ev.Parent != "", Body: r.markdown(clean(ev.Text))}
	r.exec(r.sink(ev.Parent), "revision", it)
}

// markdown renders a text (cleaned) as HTML. goldmark escapes all text;
// safeNodes (markdown.go) handles the nodes that could carry markup.
func (r *Renderer) markdown(s string) template.HTML {
	r.md0.Reset()
	// Containers nested beyond mddepth.Max are text: the parse stays
	// linear however deep the text nests.
	if err := r.md.Convert(mddepth.Limit([]byte(s), mddepth.Max), &r.md0); err != nil {
		return template.HTML("<pre>" + template.HTMLEscapeString(s) + "</pre>\n")
	}
	return template.HTML(r.md0.String())
}
