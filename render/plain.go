package render

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/palette"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/streaming"
)

func init() {
	Register("plain", func(w io.Writer, cfg Config) Renderer { return newPlainRenderer(w, cfg) })
}

// blockID identifies the text block being printed.
type blockID struct {
	msg   string
	kind  streaming.Kind
	index int
}

// plainRenderer is the append-only renderer for CI logs, files and pipes: no cursor
// movement, text printed as complete lines while it streams, a start line
// and an end line for each tool call.
type plainRenderer struct {
	w   *bufio.Writer
	cfg Config
	p   palette.Palette

	// The current text block: its message id (copied: events are valid
	// only during Handle), kind and index.
	curMsg   []byte
	curKind  streaming.Kind
	curIndex int
	inBlock  bool
	curDepth int
	curSub   *subLabel // the current block's subagent label, if any
	curUser  bool      // a user message
	partial  []byte    // the unfinished last line of the current block (what is not yet written of it)
	shown    int       // how much of partial Flush has already written (a prompt's: it keeps its whole line)
	lineOpen bool      // the unfinished line's start is written (showPartial)
	lineNo   int       // lines printed in the current block
	thinking thinkingSummary
	fold     promptFold // the current block's lines, when it is a prompt

	st      streaming.State // the session's: its open tool calls and the run's figures
	lbuf    []byte          // scratch for an end line's own label
	printed bool            // anything printed yet
	buf     []byte          // scratch for a line being made
	lines   []string        // scratch for tool output lines
	ci      ciMarkers

	// The run's closing line waits (closing) until something else than
	// an error or a notice comes, so that those (codex exec's own word
	// after a failed turn) go above it: the closing line stays last. It
	// is written at the next idle moment (Flush) whatever comes.
	closing []byte

	// subs are the subagents' labels (sublabel.go): the last one made,
	// for the call, and the widest so far.
	subs struct {
		call *streaming.Call
		last *subLabel
		w    int
	}
}

// newPlainRenderer returns a plain renderer writing to w.
func newPlainRenderer(w io.Writer, cfg Config) *plainRenderer {
	p := newPlain(cfg)
	p.ci, p.w = newCIMarkers(cfg, w)
	return p
}

// newPlain is a plain renderer without its writer and CI markers (a lane
// of several streams gets them from its view).
func newPlain(cfg Config) *plainRenderer {
	p := &plainRenderer{cfg: cfg, p: cfg.palette}
	if p.p.Dim == nil {
		p.p = palette.New(false)
	}
	return p
}

// Flush writes what is buffered.
//
// The unfinished last line of streaming text is written first, so that a
// hung agent's last words are in the log; the line is finished in place
// when the rest of it arrives (append-only, no cursor movement).
func (p *plainRenderer) Flush() error {
	p.writeClosing()
	p.showPartial()
	return p.w.Flush()
}

// cleanOutput sanitises tool output: its SGR colour is left out, or let
// through with --allow-color (and nothing else).
func (p *plainRenderer) cleanOutput(s string) string {
	o := sanitize.Options{SGR: sanitize.DropSGR}
	if p.cfg.AllowColor {
		o.SGR = sanitize.PassSGR
	}
	return sanitize.String(s, o)
}

func (p *plainRenderer) clean(s string) string {
	return sanitize.String(s, sanitize.Options{})
}

func (p *plainRenderer) depthOf(parent string) int { return callDepth(p.st, parent) }

// emitLine writes one finished line with the event's indent and timestamp.
func (p *plainRenderer) emitLine(ev *streaming.Event, depth int, s string) {
	p.emitPrefixed(ev, depth, "", s)
}

// emitPrefixed is emitLine(ev, depth, prefix+s) without joining them.
func (p *plainRenderer) emitPrefixed(ev *streaming.Event, depth int, prefix, s string) {
	p.emitStart(ev, depth, prefix)
	p.w.WriteString(s)
	p.w.WriteByte('\n')
}

// styledLine is emitLine(ev, depth, style(prefix+s)).
func (p *plainRenderer) styledLine(ev *streaming.Event, depth int, style func(string) string, prefix, s string) {
	p.emitStart(ev, depth, "")
	p.styled(style, prefix, s)
	p.w.WriteByte('\n')
}

// styled writes style(prefix+s), without joining them when colour is off.
func (p *plainRenderer) styled(style func(string) string, prefix, s string) {
	if p.p.Off {
		p.w.WriteString(prefix)
		p.w.WriteString(s)
		return
	}
	p.w.WriteString(style(prefix + s))
}

// styledBytes writes style(string(b)), b itself when colour is off.
func (p *plainRenderer) styledBytes(style func(string) string, b []byte) {
	if p.p.Off {
		p.w.Write(b)
		return
	}
	p.w.WriteString(style(string(b)))
}

// emitStart writes the start of a line: timestamp, indent, prefix.
func (p *plainRenderer) emitStart(ev *streaming.Event, depth int, prefix string) {
	if p.cfg.Timestamps && ev != nil && !ev.Time.IsZero() {
		p.w.WriteString(p.p.Dim(ev.Time.Local().Format("15:04:05")))
		p.w.WriteByte(' ')
	}
	sub := p.curSub
	if ev != nil {
		sub = p.subOf(ev.Parent)
	}
	if sub != nil && depth >= sub.depth {
		p.w.WriteString(sub.margin(p.p.Dim, depth, p.subs.w))
	} else {
		for i := 0; i < depth; i++ {
			p.w.WriteString("  ")
		}
	}
	p.w.WriteString(prefix)
	p.printed = true
}

// writeClosing writes the run's closing line held back (closing).
func (p *plainRenderer) writeClosing() {
	if len(p.closing) > 0 {
		p.w.Write(p.closing)
		p.closing = p.closing[:0]
	}
}

// Handle renders one event.
func (p *plainRenderer) Handle(ev *streaming.Event) error {
	if len(p.closing) > 0 && ev.Kind != streaming.KindError && ev.Kind != streaming.KindNotice &&
		ev.Kind != streaming.KindUsage && ev.Kind != streaming.KindMessageStop && ev.Kind != streaming.KindBlockStop {
		p.writeClosing()
	}
	switch ev.Kind {
	case streaming.KindTextDelta, streaming.KindThinkingDelta:
		p.text(ev)
		return p.err()
	case streaming.KindTextRevision, streaming.KindThinkingRevision:
		p.endBlock()
		if ev.Kind == streaming.KindThinkingRevision && p.cfg.Thinking != ThinkingFull {
			return nil
		}
		p.emitLine(ev, p.depthOf(ev.Parent), p.p.Yellow("↻ revised:"))
		for _, l := range splitLines(p.ci.content(p.clean(ev.Text))) {
			p.emitLine(ev, p.depthOf(ev.Parent), l)
		}
		return p.err()
	case streaming.KindBlockStop:
		// The session says the block is final: its last line and its
		// thinking summary are written now.
		if p.inBlock && ev.BlockKind == p.curKind && ev.Block == p.curIndex && ev.Message == string(p.curMsg) {
			p.endBlock()
		}
		return p.err()
	case streaming.KindToolInputDelta, streaming.KindToolOutputDelta, streaming.KindMessageStart, streaming.KindMessageStop,
		streaming.KindUsage, streaming.KindTextSentence:
		return nil
	}
	// A line of its own: the text block being printed is interrupted (its
	// partial line finished, its thinking summary written); more of it
	// would go on below.
	p.endBlock()
	d := p.depthOf(ev.Parent)
	switch ev.Kind {
	case streaming.KindSessionStart:
		if p.printed {
			p.emitLine(ev, 0, "")
		}
		// "● session ID · agent · title · model · cwd", the parts there are.
		b := append(p.buf[:0], "● "...)
		sep := ""
		if ev.SessionID != "" {
			b = append(append(b, "session "...), p.clean(ev.SessionID)...)
			sep = eventtext.FactSep
		}
		for _, s := range [...]string{ev.Agent, ev.Title, ev.Model, ev.CWD} {
			if s != "" {
				b = append(append(b, sep...), p.clean(s)...)
				sep = eventtext.FactSep
			}
		}
		p.buf = b
		p.emitStart(ev, 0, "")
		p.styledBytes(p.p.Dim, b)
		p.w.WriteByte('\n')
	case streaming.KindToolStart:
		p.emitPrefixed(ev, d, p.p.Cyan("▸ "), p.startTool(ev))
	case streaming.KindToolEnd:
		p.toolEnd(ev, d)
	case streaming.KindPlan:
		if c := p.call(ev.ID); ev.ID != "" && c != nil {
			c.Mark = planMade{}
		}
		p.emitLine(ev, d, p.p.Bold("Plan"))
		for _, e := range ev.Entries {
			p.emitLine(ev, d+1, eventtext.PlanMark(e.Status)+" "+p.clean(eventtext.OneLine(e.Text)))
		}
	case streaming.KindPermissionRequest:
		var opts []string
		for _, o := range ev.Options {
			opts = append(opts, p.clean(o.Name))
		}
		line := p.p.Yellow("? permission") + " " + p.clean(ev.Name)
		if ev.Title != "" {
			line += " " + p.clean(eventtext.OneLine(ev.Title))
		}
		if len(opts) > 0 {
			line += p.p.Dim(" [" + strings.Join(opts, " / ") + "]")
		}
		p.emitLine(ev, d, line)
	case streaming.KindPermissionResponse:
		p.styledLine(ev, d, p.p.Dim, "  → ", p.clean(ev.Choice))
	case streaming.KindModeChange:
		p.emitLine(ev, d, p.p.Dim("· mode "+p.clean(ev.From)+" → "+p.clean(ev.To)))
	case streaming.KindStatus:
		msg := p.clean(eventtext.OneLine(ev.Text))
		if ev.Level == streaming.LevelWarning {
			p.ci.warning(msg)
			p.styledLine(ev, d, p.p.Yellow, "⚠ ", msg)
		} else {
			p.styledLine(ev, d, p.p.Dim, "· ", msg)
		}
	case streaming.KindError:
		msg := p.clean(ev.Text)
		if ev.Fatal || ev.Level != streaming.LevelWarning {
			p.emitPrefixed(ev, d, p.p.Red("✗ error: "), p.ci.content(msg))
		} else {
			p.ci.warning(eventtext.OneLine(msg))
			p.emitPrefixed(ev, d, p.p.Yellow("⚠ "), p.ci.content(msg))
		}
	case streaming.KindResult:
		p.holdResultLine(ev)
	case streaming.KindRaw, streaming.KindStderr:
		p.emitLine(ev, 0, p.ci.content(p.clean(ev.Text)))
	case streaming.KindUnknown:
		t := ev.Type
		if t == "" {
			t = "?"
		}
		p.styledLine(ev, d, p.p.Dim, "· unknown event ", p.clean(t))
	case streaming.KindNotice:
		p.styledLine(ev, 0, p.p.Yellow, "agentfmt: ", p.clean(ev.Text))
	}
	return p.err()
}

func (p *plainRenderer) err() error {
	// bufio.Writer keeps the first write error; report it.
	if _, err := p.w.Write(nil); err != nil {
		return err
	}
	return nil
}

func (p *plainRenderer) toolEnd(ev *streaming.Event, d int) {
	// The end line's label is its start line's when made from the same
	// name, input and title.
	label := p.endLabel(ev)
	edits := ev.Edits
	if c := p.call(ev.ID); len(edits) == 0 && c != nil {
		edits = c.Edits // the start's
	}
	diff, add, del, showDiff := editDiff(ev.Status, edits, ev.Subject)
	// The facts, each after factSep.
	facts := p.buf[:0]
	if showDiff {
		facts = appendDiffStat(append(facts, eventtext.FactSep...), add, del)
	}
	if ev.ExitCode != nil {
		facts = strconv.AppendInt(append(facts, eventtext.FactSep+"exit "...), int64(*ev.ExitCode), 10)
	}
	if ev.DurationMS > 0 {
		facts = eventtext.AppendDuration(append(facts, eventtext.FactSep...), ev.DurationMS)
	}
	if ev.Status != streaming.ToolOK && ev.Status != streaming.ToolError {
		facts = append(append(facts, eventtext.FactSep...), ev.Status...)
	}
	p.buf = facts
	n := p.cfg.ToolLines
	if p.cfg.Tools == ToolsFull || p.ci.folds() {
		n = 0
	}
	var lines []string
	var h, omitted int
	switch {
	case p.cfg.Tools == ToolsNone:
	case ev.Status == streaming.ToolOK && madePlan(p.call(ev.ID)):
		// The plan it made is shown; its output is a note to the model
		// (Claude's "Todos have been modified successfully…").
	case repeatsAnswer(p.call(ev.ID)):
		// Its output is its subagent's answer, shown above as text.
	case showDiff:
		if n > 0 {
			n *= 2 // a diff gets twice the rows, as in pretty
		}
		lines, h, omitted = p.diffLines(p.lines, diff, n)
	default:
		// Only the lines shown are split off and sanitised: the output
		// can be megabytes.
		lines, h, omitted = previewText(p.lines, eventtext.ToolOutput(ev), n, p.cleanOutput)
	}
	if len(lines) > 0 && p.ci.folds() {
		// In a CI log the end line is the header of the folded output.
		title := eventtext.StatusMark(ev.Status) + " " + ev.Name
		if arg := eventtext.KeyArg(ev); arg != "" {
			title += " " + arg
		}
		p.ci.groupStart(title + string(facts))
	} else {
		p.emitStart(ev, d, "")
		mark := eventtext.StatusMark(ev.Status)
		switch ev.Status {
		case streaming.ToolOK:
			mark = p.p.Green(mark)
		case streaming.ToolError:
			mark = p.p.Red(mark)
		default:
			mark = p.p.Yellow(mark)
		}
		p.w.WriteString(mark)
		p.w.WriteByte(' ')
		p.w.WriteString(label)
		if len(facts) > 0 {
			p.styledBytes(p.p.Dim, facts)
		}
		p.w.WriteByte('\n')
	}
	if len(lines) == 0 {
		return
	}
	bar := p.p.Dim("│ ")
	for _, l := range lines[:h] {
		p.emitPrefixed(ev, d+1, bar, p.ci.content(l))
	}
	if omitted > 0 {
		b := strconv.AppendInt(append(p.buf[:0], "│ … "...), int64(omitted), 10)
		p.buf = append(append(b, " more line"...), eventtext.Plural(omitted)...)
		p.emitStart(ev, d+1, "")
		p.styledBytes(p.p.Dim, p.buf)
		p.w.WriteByte('\n')
	}
	for _, l := range lines[h:] {
		p.emitPrefixed(ev, d+1, bar, p.ci.content(l))
	}
	p.ci.groupEnd()
	// The lines may be the event's: keep none.
	clear(lines)
	if cap(lines) <= 1024 {
		p.lines = lines[:0]
	}
}

// holdResultLine makes the run's closing line and holds it back
// (closing).
func (p *plainRenderer) holdResultLine(ev *streaming.Event) {
	p.writeClosing()
	if err := p.w.Flush(); err != nil {
		return // (kept by the writer: Handle returns it)
	}
	w := p.w
	var b bytes.Buffer
	p.w = bufio.NewWriterSize(&b, 256)
	p.resultLine(ev)
	p.w.Flush()
	p.w = w
	p.closing = append(p.closing[:0], b.Bytes()...)
}

// resultLine is "── ✓ done · facts" or "── ✗ failed: reason · facts".
func (p *plainRenderer) resultLine(ev *streaming.Event) {
	if !ev.OK {
		p.ci.errorAnnotation("agent run failed: " + eventtext.OneLine(ev.Reason))
	}
	p.emitStart(ev, 0, "── ")
	if ev.OK {
		p.w.WriteString(p.p.Green("✓ done"))
	} else {
		p.w.WriteString(p.p.Red("✗ failed"))
		if ev.Reason != "" {
			p.styled(p.p.Red, ": ", p.clean(eventtext.OneLine(ev.Reason)))
		}
	}
	run := runOf(p.st, ev)
	if o := eventtext.OriginLabel(run.Origin); o != "" {
		p.styled(p.p.Dim, eventtext.FactSep, p.clean(o))
	}
	if facts := eventtext.AppendFacts(p.buf[:0], run.DurationMS, run.Turns, run.Usage); len(facts) > 0 {
		p.buf = facts
		p.styledBytes(p.p.Dim, facts)
	}
	if m := eventtext.ModelsLabel(run.Models); m != "" {
		p.styled(p.p.Dim, eventtext.FactSep, p.clean(m))
	}
	p.w.WriteByte('\n')
}

// Finish writes the closing line of a run that did not finish.
func (p *plainRenderer) Finish(s Summary) error {
	p.endBlock()
	p.writeClosing()
	switch {
	case s.Stopped:
	case s.Interrupted:
		p.emitLine(nil, 0, "── "+p.p.Yellow("⊘ interrupted"))
	case s.Outcome == streaming.Incomplete, s.Outcome == streaming.Failure && s.NoResult:
		what, style := "… incomplete: ", p.p.Yellow
		if s.Outcome == streaming.Failure {
			what, style = "✗ failed: ", p.p.Red
			p.ci.errorAnnotation("agent run failed: " + eventtext.OneLine(s.Reason))
		} else {
			p.ci.errorAnnotation("agent run incomplete: " + s.Reason)
		}
		line := "── " + style(what+p.clean(eventtext.OneLine(s.Reason)))
		if facts := eventtext.AppendFacts(nil, 0, 0, runOf(p.st, nil).Usage); len(facts) > 0 {
			line += p.p.Dim(string(facts))
		}
		p.emitLine(nil, 0, line)
	}
	if s.UntilMissing {
		p.ci.errorAnnotation("the final answer lacks the completion marker " + p.cfg.Until)
		p.emitLine(nil, 0, p.p.Yellow("── the final answer lacks the completion marker "+p.clean(p.cfg.Until)))
	}
	p.ci.finish()
	return p.w.Flush()
}
