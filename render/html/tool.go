package html

import (
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/diffview"
	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// Tool output is folded when it is longer than foldLines lines or
// foldBytes bytes: the first headLines lines (at most headBytes) are
// shown, the rest under a "… N more lines · size" fold.
const (
	foldLines = 30
	foldBytes = 16 << 10
	headLines = 20
	headBytes = 8 << 10
)

// toolItem fills the "tool" template.
type toolItem struct {
	ID, Class, Status, Mark string
	Name, Subject, Title    template.HTML
	Meta                    []string
	Add, Del                int  // lines its edits add and remove
	Stat                    bool // Add and Del are shown
	Open                    bool // something failed inside: the card is open
	FailedInside            string
	Edits                   []editItem
	Input                   template.HTML
	InputSize               string
	Nested                  template.HTML
	HasOutput               bool
	Answer                  template.HTML // the output of a call that started a subagent: its answer, from markdown
	Output, More            template.HTML
	OutputSize, MoreLabel   string
	Sub                     bool
}

type editItem struct {
	Op    string
	Path  template.HTML
	Lines []diffLine
}

type diffLine struct {
	Class string
	Text  template.HTML
}

// open is the openTool of the session's open call id, unless it was
// written already, or nil.
func (r *Renderer) open(id string) *openTool {
	if id == "" || r.st == nil {
		return nil
	}
	if c := r.st.Call(id); c != nil {
		if t, ok := c.Mark.(*openTool); ok && !t.closed {
			return t
		}
	}
	return nil
}

// startTool keeps an openTool on a call that started, and names it to the
// call it was started under.
func (r *Renderer) startTool(ev *streaming.Event) {
	if r.st == nil {
		return
	}
	c := r.st.Call(ev.ID)
	if c == nil {
		return
	}
	t := &openTool{}
	r.place(ev.Parent, t)
	c.Mark = t
	if p := r.open(ev.Parent); p != nil {
		p.children = append(p.children, c)
	}
}

// endTool writes a tool call that ended (the session's tool.end says
// what its start said, but its edits, read from the call), with the
// subagent work under it.
func (r *Renderer) endTool(ev *streaming.Event) {
	r.endBlock(ev.ID)
	if r.st != nil && len(ev.Edits) == 0 {
		if c := r.st.Call(ev.ID); c != nil && len(c.Edits) > 0 {
			e := *ev
			e.Edits = c.Edits // the start's
			ev = &e
		}
	}
	var nested template.HTML
	failed := 0
	var plan []streaming.PlanEntry
	t := r.open(ev.ID)
	if t != nil {
		// Calls it started that are still open are closed first: their
		// blocks belong inside it.
		r.closeChildren(t)
		r.release(&t.order, &t.nested, true)
		nested = template.HTML(t.nested.String())
		failed, plan = t.failed, t.plan
		t.closed = true
	}
	if c := r.call(ev.ID); nested != "" && c != nil && c.RepeatsAnswer {
		// Its output is its subagent's last message, on the page above.
		e := *ev
		e.Output = ""
		ev = &e
	}
	var before func(io.Writer)
	if plan != nil {
		// The plan a call made (TodoWrite) is shown once: as a plan,
		// without the card when the call succeeded.
		pev := &streaming.Event{Kind: streaming.KindPlan, Parent: ev.Parent, Entries: plan}
		before = func(w io.Writer) { r.planIn(w, pev) }
		if ev.Status == streaming.ToolOK {
			r.placed(ev.Parent, t, before)
			return
		}
	}
	r.writeTool(ev, nested, failed, t, before)
}

// closeChildren closes the open calls started under a call, as
// incomplete, innermost first.
func (r *Renderer) closeChildren(t *openTool) {
	for _, c := range t.children {
		if r.st.Call(c.ID) == c {
			r.closeOpen(c)
		}
	}
	t.children = nil
}

// closeOpen writes an open call as incomplete.
func (r *Renderer) closeOpen(c *streaming.Call) {
	t, ok := c.Mark.(*openTool)
	if !ok || t.closed {
		return
	}
	r.endBlock(c.ID)
	r.closeChildren(t)
	r.release(&t.order, &t.nested, true)
	ev := streaming.Event{Kind: streaming.KindToolEnd, ID: c.ID, Name: c.Name, Parent: c.Parent, Input: c.Input,
		Title: c.Title, Subject: c.Subject, Edits: c.Edits, Status: streaming.ToolIncomplete}
	nested := template.HTML(t.nested.String())
	failed, plan := t.failed, t.plan
	t.closed = true
	var before func(io.Writer)
	if plan != nil {
		pev := &streaming.Event{Kind: streaming.KindPlan, Parent: ev.Parent, Entries: plan}
		before = func(w io.Writer) { r.planIn(w, pev) }
	}
	r.writeTool(&ev, nested, failed, t, before)
}

// closeTools writes every call still open as incomplete (the end of a run
// or of the input).
func (r *Renderer) closeTools() {
	if r.st == nil {
		return
	}
	for _, c := range r.st.Calls() {
		r.closeOpen(c)
	}
}

// writeTool writes a finished call's card, with the work it started
// (nested), in which failed calls or errors failed inside, in the place
// of the call t in its scope's order, after what before writes.
func (r *Renderer) writeTool(ev *streaming.Event, nested template.HTML, failed int, t *openTool, before func(io.Writer)) {
	it := toolItem{ID: r.nextID(), Status: string(ev.Status), Mark: eventtext.StatusMark(ev.Status),
		Name: esc(clean(oneLine(ev.Name))), Nested: nested, Sub: ev.Parent != ""}
	if failed > 0 {
		// A failure inside a subagent shows without opening its card.
		it.Open = true
		it.FailedInside = itoa(failed) + " failed inside"
	}
	r.failedIn(ev.Parent, failed)
	if ev.Status == streaming.ToolError {
		r.failedIn(ev.Parent, 1)
	}
	it.Class = string(ev.Status)
	if it.Class == "" {
		it.Class = "running"
	}
	if ev.Name == "" {
		it.Name = "tool"
	}
	it.Subject = esc(clean(eventtext.TruncateRunes(eventtext.KeyArg(ev), 300)))
	if ev.Title != "" && oneLine(ev.Title) != eventtext.KeyArg(ev) {
		it.Title = esc(clean(ev.Title))
	}
	if ev.ExitCode != nil {
		it.Meta = append(it.Meta, "exit "+strconv.Itoa(*ev.ExitCode))
	}
	if ev.DurationMS > 0 {
		it.Meta = append(it.Meta, eventtext.Duration(ev.DurationMS))
	}
	if ev.Status != streaming.ToolOK && ev.Status != "" {
		it.Meta = append(it.Meta, string(ev.Status))
	}
	for _, e := range ev.Edits {
		it.Edits = append(it.Edits, editOf(e))
	}
	if ev.Status == streaming.ToolOK && len(ev.Edits) > 0 {
		// "+3 −1" on the card's line, as on pretty's.
		it.Add, it.Del = diffview.Stat(diffview.Lines(ev.Edits))
		it.Stat = it.Add+it.Del > 0
	}
	if in := strings.TrimSpace(ev.Input); in != "" && in != "{}" && in != "null" {
		it.Input, it.InputSize = esc(clean(indentJSON(in))), size(len(in))
	}
	out := eventtext.ToolOutput(ev)
	if nested != "" && r.cfg.Tools != render.ToolsNone && strings.TrimSpace(out) != "" && len(out) <= blockFlush {
		// A subagent's answer: drawn from markdown, as the main one is.
		it.Answer = r.markdown(clean(out))
	} else if r.cfg.Tools != render.ToolsNone || out == "" {
		r.output(&it, out)
	} else {
		it.HasOutput, it.OutputSize = true, sizeLines(out)+" (not shown: --tools none)"
	}
	r.placed(ev.Parent, t, func(w io.Writer) {
		if before != nil {
			before(w)
		}
		r.exec(w, "tool", it)
	})
}

// failedIn counts n failures in the work of the open call id (and so in
// the calls around it, when it is written).
func (r *Renderer) failedIn(id string, n int) {
	if t := r.open(id); t != nil && n > 0 {
		t.failed += n
	}
}

// output fills the output of a tool item, folded when it is long.
func (r *Renderer) output(it *toolItem, out string) {
	out = strings.TrimRight(out, "\n")
	if strings.TrimSpace(out) == "" {
		return
	}
	it.HasOutput, it.OutputSize = true, sizeLines(out)
	lines := strings.Count(out, "\n") + 1
	if r.cfg.Tools == render.ToolsFull || (lines <= foldLines && len(out) <= foldBytes) {
		it.Output = ansiHTML(cleanOutput(out))
		return
	}
	// The head: headLines lines, at most headBytes (cut at a line end
	// when there is one).
	cut, n := 0, 0
	for n < headLines {
		i := strings.IndexByte(out[cut:], '\n')
		if i < 0 || cut+i > headBytes {
			break
		}
		cut += i + 1
		n++
	}
	if cut == 0 {
		cut = min(len(out), headBytes)
		for cut > 0 && cut < len(out) && !utf8Start(out[cut]) {
			cut--
		}
	}
	head, rest := out[:cut], out[cut:]
	it.Output = ansiHTML(cleanOutput(strings.TrimSuffix(head, "\n")))
	it.More = ansiHTML(cleanOutput(rest))
	more := lines - n
	if strings.HasSuffix(head, "\n") {
		it.MoreLabel = "… " + strconv.Itoa(more) + " more line" + plural(more) + " · " + size(len(rest))
	} else {
		it.MoreLabel = "… " + size(len(rest)) + " more"
	}
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// editOf is a file edit as a unified diff, line by line, as the other
// formats show it (internal/diffview): the agent's own diff when it sent
// one (its file headers left out: the path is above it), else one made
// from the old and new text — of a snippet, not a file, so without line
// numbers or "\ No newline at end of file".
func editOf(e streaming.FileEdit) editItem {
	path := e.Path
	if e.To != "" && e.To != e.Path {
		path += " → " + e.To
	}
	it := editItem{Op: e.Op, Path: esc(clean(path))}
	if it.Op == "" {
		it.Op = streaming.EditModify
	}
	for _, l := range diffview.Lines([]streaming.FileEdit{e}) {
		class := "ctx"
		switch l.Kind {
		case diffview.File:
			continue // the path above
		case diffview.Hunk:
			class = "hunk"
		case diffview.Add:
			class = "add"
		case diffview.Del:
			class = "del"
		case diffview.Note:
			class = "meta"
		}
		it.Lines = append(it.Lines, diffLine{class, esc(clean(l.Text))})
	}
	return it
}

// planItem fills the "plan" template.
type planItem struct {
	ID      string
	Sub     bool
	Entries []planEntry
}

type planEntry struct {
	Class, Status, Mark string
	Text, Priority      template.HTML
}

func (r *Renderer) plan(ev *streaming.Event) { r.planIn(r.sink(ev.Parent), ev) }

// planIn writes a plan to w.
func (r *Renderer) planIn(w io.Writer, ev *streaming.Event) {
	it := planItem{ID: r.nextID(), Sub: ev.Parent != ""}
	for _, e := range ev.Entries {
		st := e.Status
		if st == "" {
			st = streaming.PlanPending
		}
		it.Entries = append(it.Entries, planEntry{Class: st, Status: strings.ReplaceAll(st, "_", " "),
			Mark: eventtext.PlanMark(st), Text: esc(clean(e.Text)), Priority: esc(clean(e.Priority))})
	}
	r.exec(w, "plan", it)
}

// size is a byte count for people: 512 B, 12.3 KB, 4.5 MB.
func size(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n) + " B"
	case n < 1000_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + " KB"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
}

// sizeLines is "12 lines · 3.4 KB".
func sizeLines(s string) string {
	n := strings.Count(strings.TrimRight(s, "\n"), "\n") + 1
	return strconv.Itoa(n) + " line" + plural(n) + " · " + size(len(s))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func itoa(n int) string { return strconv.Itoa(n) }

// call is the session's open call id, or nil.
func (r *Renderer) call(id string) *streaming.Call {
	if r.st == nil {
		return nil
	}
	return r.st.Call(id)
}
