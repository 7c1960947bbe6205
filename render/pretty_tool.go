package render

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/diffview"
	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/streaming"
)

// toolItem is one tool call: a running line with a spinner that turns
// into a done or failed line, with a preview of the output, in place.
type toolItem struct {
	// call says what the call is (ID, Name, Title, Subject): the session's
	// Call (those fields never change there), or a copy of what the
	// events said when the session does not hold it or its end said more.
	call  *streaming.Call
	depth int
	sub   *subLabel // the subagent it is of, if any (sublabel.go)
	start time.Time

	ended  bool
	split  bool // a headerItem holds its place; the done line is pushed at its end
	opened bool // header committed; shown running at the top of the region

	key    string // key argument, cached
	keyLen int    // len(subject)+len(title) it was computed for, +1

	// What only some calls have, each made when it comes: a running call
	// costs only the above (tens of thousands may run at once).
	*toolMore
	*toolEnd // how it ended: nil while it runs
}

// toolMore is a call's output so far, its plan, and the label of the
// work it started (a subagent's), once it has some.
type toolMore struct {
	outTail []byte
	hasPlan bool // it made a plan: shown in place of its output
	plan    []streaming.PlanEntry
	work    *subLabel
}

// more returns the call's toolMore, made if it has none.
func (t *toolItem) more() *toolMore {
	if t.toolMore == nil {
		t.toolMore = &toolMore{}
	}
	return t.toolMore
}

// toolEnd is how a tool call ended, and its done rows.
type toolEnd struct {
	edits       []streaming.FileEdit // file changes, shown as a diff
	interrupted bool
	// running: the call was running when following stopped (Summary.Stopped).
	running bool
	status  streaming.ToolStatus
	exit    *int
	durMS   int64
	endAt   time.Time
	output  string

	done      []row // done line and preview, cached
	doneWidth int   // the width they were made for
}

func (t *toolItem) settle(*prettyRenderer) {}
func (t *toolItem) complete() bool         { return t.ended }

func (t *toolItem) keyArg() string {
	if n := len(t.call.Subject) + len(t.call.Title) + 1; n != t.keyLen {
		ev := streaming.Event{Title: t.call.Title, Subject: t.call.Subject}
		t.key = sanitize.String(eventtext.KeyArg(&ev), sanitize.Options{})
		t.keyLen = n
	}
	return t.key
}

// label is "Name key-argument", the argument cut to fit in room cells.
func (t *toolItem) label(r *prettyRenderer, room int) (string, int) {
	name := sanitize.String(t.call.Name, sanitize.Options{})
	nw := cells(name)
	s, w := r.p.Bold(name), nw
	if arg := t.keyArg(); arg != "" && room-nw-1 >= 6 {
		arg = truncCells(arg, room-nw-1)
		s += " " + arg
		w += 1 + cells(arg)
	}
	return s, w
}

// truncCells cuts plain text to avail cells, ending in an ellipsis.
func truncCells(s string, avail int) string {
	if cells(s) <= avail {
		return s
	}
	rows := wrapStyled(nil, s, avail, "", "", 0, true)
	return rows[0].s
}

// elapsed formats a live duration in whole seconds, so it changes at most
// once a second.
func elapsed(d time.Duration) string {
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s/60%60)
}

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// runningRows is the spinner line and the last line of output so far.
func (t *toolItem) runningRows(r *prettyRenderer, dst []row) []row {
	iw := r.indentW(t.depth)
	suffix := ""
	if d := r.now.Sub(t.start); d >= time.Second {
		suffix = " · " + elapsed(d)
	}
	label, lw := t.label(r, r.scr.width-iw-2-cells(suffix))
	s := strings.Repeat(" ", iw) + r.p.Cyan(r.spinner()) + " " + label + r.p.Dim(suffix)
	dst = append(dst, row{s: s, w: iw + 2 + lw + cells(suffix), keep: true, call: true})
	if t.toolMore == nil {
		return dst
	}
	if last := lastLine(t.outTail, r.outputOptions()); last != "" {
		dst = wrapStyled(dst, r.p.Dim("│ "+last), r.scr.width-iw-2, strings.Repeat(" ", iw+2), "", iw+2, true)
	}
	return dst
}

// lastLine is the last non-empty line of streamed output, sanitised
// with o.
func lastLine(b []byte, o sanitize.Options) string {
	b = bytes.TrimRight(b, "\r\n \t")
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	if len(b) == 0 {
		return ""
	}
	for len(b) > 0 && !utf8.RuneStart(b[0]) {
		b = b[1:]
	}
	return expandTabs(sanitize.String(string(b), o))
}

// headerRow is the committed start line of a call whose work follows it.
func (t *toolItem) headerRow(r *prettyRenderer, dst []row) []row {
	iw := r.indentW(t.depth)
	label, lw := t.label(r, r.scr.width-iw-2)
	return append(dst, row{s: strings.Repeat(" ", iw) + r.p.Cyan("▸ ") + label, w: iw + 2 + lw})
}

// doneRows is the done (or failed) line and the output preview, made once
// per terminal width: a finished call may wait in the region for many
// frames.
func (t *toolItem) doneRows(r *prettyRenderer, dst []row) []row {
	if t.done == nil || t.doneWidth != r.scr.width {
		t.done = t.makeDone(r, t.done[:0])
		t.doneWidth = r.scr.width
	}
	return append(dst, t.done...)
}

func (t *toolItem) makeDone(r *prettyRenderer, dst []row) []row {
	iw := r.indentW(t.depth)
	mark := eventtext.StatusMark(t.status)
	var facts []string
	if t.exit != nil {
		facts = append(facts, fmt.Sprintf("exit %d", *t.exit))
	}
	switch {
	case t.durMS > 0:
		facts = append(facts, eventtext.Duration(t.durMS))
	case t.endAt.Sub(t.start) >= time.Second:
		facts = append(facts, eventtext.Duration(t.endAt.Sub(t.start).Milliseconds()))
	}
	switch {
	case t.running:
		mark = "▸"
		facts = append(facts, "running when following stopped")
	case t.interrupted:
		mark = "⊘"
		facts = append(facts, "interrupted")
	case t.status != streaming.ToolOK && t.status != streaming.ToolError:
		facts = append(facts, string(t.status))
	}
	switch {
	case t.interrupted:
		mark = r.p.Yellow(mark)
	case t.status == streaming.ToolOK:
		mark = r.p.Green(mark)
	case t.status == streaming.ToolError:
		mark = r.p.Red(mark)
	default:
		mark = r.p.Yellow(mark)
	}
	if t.showsDiff() {
		add, del := diffview.Stat(diffview.Lines(t.edits))
		facts = append([]string{fmt.Sprintf("+%d −%d", add, del)}, facts...)
	}
	suffix := ""
	if len(facts) > 0 {
		suffix = " · " + strings.Join(facts, " · ")
	}
	label, lw := t.label(r, r.scr.width-iw-2-cells(suffix))
	dst = append(dst, row{s: strings.Repeat(" ", iw) + mark + " " + label + r.p.Dim(suffix), w: iw + 2 + lw + cells(suffix)})
	if t.toolMore != nil && t.hasPlan {
		n := len(dst) - 1
		dst = r.checklist(dst, t.plan, t.depth)
		keepWhole(dst[n:]) // a plan is shown whole or not at all, under its call
		return dst
	}
	if t.showsDiff() {
		return r.diffPreview(dst, t.edits, t.call.Subject, t.depth+1)
	}
	return r.preview(dst, t.output, t.depth+1)
}

// showsDiff reports that the call succeeded with file edits whose
// changes are known (lines added or removed): its preview is their diff.
// Edits that name files only (a Codex change list) leave the output.
func (t *toolItem) showsDiff() bool {
	if len(t.edits) == 0 || t.toolEnd == nil || t.status != streaming.ToolOK {
		return false
	}
	add, del := diffview.Stat(diffview.Lines(t.edits))
	return add+del > 0
}

func (t *toolItem) commit(r *prettyRenderer, dst []row) []row {
	if !t.ended {
		return dst
	}
	return t.doneRows(r, dst)
}

func (t *toolItem) live(r *prettyRenderer, dst []row) []row {
	if t.ended {
		return t.doneRows(r, dst)
	}
	return t.runningRows(r, dst)
}
