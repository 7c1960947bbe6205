// Package html renders a run as one self-contained HTML page (-o html):
// for a CI artifact or a run shared with a colleague. It reads only
// streaming events, like every renderer.
//
// The page is written as the input is read: its head first, then each
// item (a prompt, an answer, a thinking block, a tool call, a plan, a
// notice) as soon as it is complete, then the footer. What it holds at
// once is the text block being written (answers are rendered from
// markdown a block at a time; a block longer than blockFlush is rendered
// in pieces) and, for a tool call that started subagent work, that work
// rendered, until the call ends and the whole block is written.
//
// Everything from the stream is text: it is escaped by html/template, and
// markdown is rendered by goldmark with raw HTML shown as text, links
// kept only to http(s) and file paths, and images only inline thumbnails
// (markdown.go). The page runs no script but its own, and its Content-
// Security-Policy (page.go) refuses any other script, style or load.
package html

import (
	"bufio"
	"bytes"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/yuin/goldmark"
)

func init() {
	render.Register("html", func(w io.Writer, cfg render.Config) render.Renderer { return New(w, cfg) })
}

// blockFlush is the size of text a block collects before the complete
// paragraphs in it are rendered: it bounds the memory and the markdown
// work of one long answer.
const blockFlush = 64 << 10

// Renderer writes the page.
type Renderer struct {
	w    *bufio.Writer
	cfg  render.Config
	page *page
	md   goldmark.Markdown

	head   bool // the page's head is written
	inRun  bool // a run's section is open
	result bool // the open run's result came (its footer is written)
	runs   int
	items  int // items written, for their ids

	blocks []*block        // text blocks being collected, one per scope (parent)
	st     streaming.State // the session's: its open tool calls, each with its openTool (Mark), and the run's figures
	md0    bytes.Buffer    // markdown output, reused
	notes  []string        // page-level notes for the footer
	order  order           // the page's order of items behind running calls (order.go)
}

// block is a text block being collected.
type block struct {
	msg    string
	kind   streaming.Kind
	index  int
	role   string
	parent string
	text   []byte
	gist   string // thinking: its first line
}

// openTool is what the page keeps on an open tool call (the session's
// Call.Mark): the subagent work under it, rendered, and the calls started
// under it, which are written inside it (as incomplete, if still open)
// when it ends.
type openTool struct {
	nested   bytes.Buffer
	children []*streaming.Call
	closed   bool                  // written already (as incomplete: its run ended)
	failed   int                   // failed calls and errors in nested
	plan     []streaming.PlanEntry // the plan the call made (TodoWrite), shown when it ends
	order    order                 // the order of the work under it (order.go)
	slot     *slot                 // its place in its scope's order
}

// New returns an HTML renderer writing to w.
func New(w io.Writer, cfg render.Config) *Renderer {
	if cfg.Thinking == "" {
		cfg.Thinking = render.ThinkingSummary
	}
	if cfg.Tools == "" {
		cfg.Tools = render.ToolsPreview
	}
	return &Renderer{w: bufio.NewWriterSize(w, 64<<10), cfg: cfg, page: thePage(), md: newMarkdown()}
}

// UseState gives the renderer the session's state (streaming.StateUser).
func (r *Renderer) UseState(st streaming.State) { r.st = st }

// run is the session's run; without a session, what the result ev, if
// any, says of it.
func (r *Renderer) run(ev *streaming.Event) *streaming.Run {
	if r.st == nil {
		return ev.ResultRun()
	}
	return r.st.Run()
}

// Flush writes what is buffered: the page so far.
func (r *Renderer) Flush() error { return r.w.Flush() }

// Heading does nothing: the page's runs need no file name between them.
func (r *Renderer) Heading(string) error { return nil }

func (r *Renderer) err() error {
	_, err := r.w.Write(nil)
	return err
}

// Handle renders one event.
func (r *Renderer) Handle(ev *streaming.Event) error {
	r.writeHead(ev)
	switch ev.Kind {
	case streaming.KindTextDelta, streaming.KindThinkingDelta:
		r.text(ev)
		return r.err()
	case streaming.KindMessageStart, streaming.KindMessageStop, streaming.KindToolInputDelta, streaming.KindToolOutputDelta,
		streaming.KindUsage, streaming.KindTextSentence:
		return nil
	case streaming.KindBlockStop:
		// The session says the block is final: it is rendered whole.
		if b := r.blockOf(ev.Parent); b != nil && b.msg == ev.Message && b.kind == ev.BlockKind && b.index == ev.Block {
			r.endBlock(ev.Parent)
		}
		return r.err()
	case streaming.KindToolStart:
		// Written when it ends, in the place it takes now (order.go):
		// the block being collected in its scope goes before it.
		r.endBlock(ev.Parent)
		r.ensureRun()
		r.startTool(ev)
		return r.err()
	case streaming.KindSessionStart:
		r.endAll()
		if r.inRun {
			// A new session before this run's result: the run is closed
			// as it stands, with no outcome (the stream gave none), as
			// plain output does.
			r.closeTools()
			r.w.WriteString("</section>\n")
			r.inRun, r.result = false, false
		}
		r.openRun(ev)
		return r.err()
	}
	// An item of its own: the block being collected in its scope is
	// interrupted (written as it stands; more of it would follow below).
	r.endBlock(ev.Parent)
	r.ensureRun()
	switch ev.Kind {
	case streaming.KindTextRevision, streaming.KindThinkingRevision:
		r.revision(ev)
	case streaming.KindToolEnd:
		r.endTool(ev)
	case streaming.KindPlan:
		if t := r.open(ev.ID); t != nil {
			t.plan = clonePlan(ev.Entries) // shown with the call, once
			break
		}
		r.plan(ev)
	case streaming.KindPermissionRequest:
		text := ev.Name
		if ev.Title != "" {
			text += " · " + ev.Title
		}
		var opts []string
		for _, o := range ev.Options {
			opts = append(opts, o.Name)
		}
		if len(opts) > 0 {
			text += " (" + strings.Join(opts, " / ") + ")"
		}
		r.line(ev.Parent, "permission", "Permission?", text)
	case streaming.KindPermissionResponse:
		r.line(ev.Parent, "permission", "Permission →", ev.Choice)
	case streaming.KindModeChange:
		r.line(ev.Parent, "mode", "Mode", ev.From+" → "+ev.To)
	case streaming.KindStatus:
		if ev.Level == streaming.LevelWarning {
			r.line(ev.Parent, "warn", "⚠", ev.Text)
		} else {
			r.line(ev.Parent, "status", "", ev.Text)
		}
	case streaming.KindError:
		label, class := "Error", "error"
		if !ev.Fatal && ev.Level == streaming.LevelWarning {
			label, class = "Warning", "warn"
		}
		r.blockItem(ev.Parent, class, label, ev.Text)
		if class == "error" {
			r.failedIn(ev.Parent, 1)
		}
	case streaming.KindResult:
		r.endAll()
		r.closeTools()
		r.runEnd(r.run(ev), ev.OK, false, false, ev.Reason)
		r.result = true
	case streaming.KindRaw, streaming.KindStderr:
		r.blockItem(ev.Parent, "raw", "Output", ev.Text)
	case streaming.KindUnknown:
		r.line(ev.Parent, "unknown", "Unknown event", ev.Type)
	case streaming.KindNotice:
		r.line(ev.Parent, "warn", "agentfmt:", ev.Text)
	}
	return r.err()
}

// Finish closes what is open (blocks, tool calls as incomplete, the run
// with the outcome the command knows) and writes the page's end.
func (r *Renderer) Finish(s render.Summary) error {
	r.writeHead(nil)
	r.endAll()
	r.closeTools()
	if r.inRun {
		r.closeRun(s)
	} else if r.runs == 0 {
		r.ensureRun()
		r.closeRun(s)
	}
	if s.UntilMissing {
		r.notes = append(r.notes, "The final answer lacks the completion marker "+r.cfg.Until)
	}
	r.release(&r.order, r.w, true)
	runs := ""
	if r.runs > 1 {
		runs = itoa(r.runs) + " runs"
	}
	r.exec(r.w, "foot", struct {
		Notes []string
		Runs  string
	}{r.cleanAll(r.notes), runs})
	return r.w.Flush()
}

// writeHead writes the page's head once, before anything else: its title
// names the agent and model when the first event starts a session.
func (r *Renderer) writeHead(ev *streaming.Event) {
	if r.head {
		return
	}
	r.head = true
	title := "agentfmt transcript"
	if ev != nil && ev.Kind == streaming.KindSessionStart {
		parts := []string{"agentfmt"}
		for _, p := range []string{ev.Agent, ev.Model} {
			if p != "" {
				parts = append(parts, oneLine(p))
			}
		}
		title = strings.Join(parts, " · ")
	}
	r.exec(r.w, "head", headData{CSP: r.page.csp, Title: clean(title), CSS: template.CSS(r.page.css), JS: template.JS(pageJS)})
}

// runHead fills the "run-start" template.
type runHead struct {
	N                                          int
	Agent, Title, Model, CWD, SessionID, Start template.HTML
	HasFacts                                   bool
}

func (r *Renderer) openRun(ev *streaming.Event) {
	r.release(&r.order, r.w, true)
	r.runs++
	r.inRun, r.result = true, false
	h := runHead{N: r.runs}
	if ev != nil {
		h.Agent, h.Model, h.CWD, h.SessionID = esc(clean(oneLine(ev.Agent))), esc(clean(oneLine(ev.Model))), esc(clean(oneLine(ev.CWD))), esc(clean(oneLine(ev.SessionID)))
		h.Title = esc(clean(oneLine(ev.Title)))
		if !ev.Time.IsZero() {
			h.Start = template.HTML(ev.Time.UTC().Format(time.RFC3339))
		}
	}
	h.HasFacts = h.Agent != "" || h.Model != "" || h.CWD != "" || h.SessionID != "" || h.Start != ""
	r.exec(r.w, "run-start", h)
}

// ensureRun opens a run for events that come without a session start.
func (r *Renderer) ensureRun() {
	if !r.inRun {
		r.openRun(nil)
	}
}

// closeRun writes the footer of a run that has none yet, from the
// command's summary, and closes its section.
func (r *Renderer) closeRun(s render.Summary) {
	if !r.result {
		switch {
		case s.Stopped:
			r.runEnd(r.run(nil), false, true, false, "following stopped; the session is left as it was")
		case s.Interrupted:
			r.runEnd(r.run(nil), false, false, true, "")
		case s.Outcome == streaming.Success:
			r.runEnd(r.run(nil), true, false, false, "")
		case s.Outcome == streaming.Failure:
			r.runEnd(r.run(nil), false, false, false, s.Reason)
		default:
			r.runEnd(r.run(nil), false, true, false, s.Reason)
		}
	}
	r.w.WriteString("</section>\n")
	r.inRun, r.result = false, false
}

// runEnd writes a run's footer: the outcome and the facts of the
// terminal's summary line (duration, turns, tokens, cost) and the tool
// calls.
func (r *Renderer) runEnd(run *streaming.Run, ok, incomplete, interrupted bool, reason string) {
	r.release(&r.order, r.w, true)
	d := struct {
		Class, Label string
		Reason       template.HTML
		Facts        []template.HTML
	}{}
	switch {
	case interrupted:
		d.Class, d.Label = "interrupted", "⊘ Interrupted"
	case ok:
		d.Class, d.Label = "ok", "✓ Done"
	case incomplete:
		d.Class, d.Label = "incomplete", "… Incomplete"
	default:
		d.Class, d.Label = "failed", "✗ Failed"
	}
	if !ok {
		d.Reason = esc(clean(oneLine(reason)))
	}
	if origin := eventtext.OriginLabel(run.Origin); origin != "" {
		d.Facts = append(d.Facts, esc(clean(origin)))
	}
	for _, f := range eventtext.Figures(run) {
		d.Facts = append(d.Facts, esc(f))
	}
	if models := eventtext.ModelsLabel(run.Models); models != "" {
		d.Facts = append(d.Facts, esc(clean(models)))
	}
	if n := run.ToolCalls; n > 0 {
		calls := itoa(n) + " tool call" + plural(n)
		if run.Failed > 0 {
			calls += " (" + itoa(run.Failed) + " failed)"
		}
		d.Facts = append(d.Facts, esc(calls))
	}
	if !run.First.IsZero() {
		d.Facts = append(d.Facts, esc("started "+run.First.UTC().Format(time.RFC3339)))
	}
	r.exec(r.w, "run-end", d)
}

// nextID is the id of the next item: its anchor.
func (r *Renderer) nextID() string {
	r.items++
	return "m" + itoa(r.items)
}

func (r *Renderer) exec(w io.Writer, name string, data any) {
	if err := r.page.exec(w, name, data); err != nil {
		// The templates are fixed and the data is typed: an error here is
		// a write error, which the writer keeps and Handle returns.
		_ = err
	}
}

// lineItem fills the "line" and "block" templates.
type lineItem struct {
	ID, Class, Label string
	Text             template.HTML
	Sub              bool
}

// line writes a one-line item: a status, a notice, a permission.
func (r *Renderer) line(parent, class, label, text string) {
	r.exec(r.sink(parent), "line", lineItem{ID: r.nextID(), Class: class, Label: label, Text: esc(clean(text)), Sub: parent != ""})
}

// blockItem writes a multi-line item as preformatted text: an error, a
// raw input line.
func (r *Renderer) blockItem(parent, class, label, text string) {
	r.exec(r.sink(parent), "block", lineItem{ID: r.nextID(), Class: class, Label: label, Text: esc(clean(text)), Sub: parent != ""})
}

// clonePlan copies plan entries to keep them past Handle.
func clonePlan(es []streaming.PlanEntry) []streaming.PlanEntry {
	out := make([]streaming.PlanEntry, len(es))
	for i, e := range es {
		out[i] = streaming.PlanEntry{Text: strings.Clone(e.Text), Status: strings.Clone(e.Status), Priority: strings.Clone(e.Priority)}
	}
	return out
}

// clean shows control characters visibly (and invalid UTF-8 as U+FFFD).
func clean(s string) string { return sanitize.String(s, sanitize.Options{}) }

func (r *Renderer) cleanAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clean(s)
	}
	return out
}

// oneLine is the first line of s, with " …" when there is more.
func oneLine(s string) string {
	s = strings.TrimLeft(s, "\r\n")
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}
