package render

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/streaming"
)

func init() {
	Register("plain", func(w io.Writer, cfg Config) Renderer { return NewPlain(w, cfg) })
}

// blockID identifies the text block being printed.
type blockID struct {
	msg   string
	kind  streaming.Kind
	index int
}

// Plain is the append-only renderer for CI logs, files and pipes: no cursor
// movement, text printed as complete lines while it streams, a start line
// and an end line for each tool call.
type Plain struct {
	w   *bufio.Writer
	cfg Config
	p   Palette

	// The current text block: its message id (copied: events are valid
	// only during Handle), kind and index.
	curMsg   []byte
	curKind  streaming.Kind
	curIndex int
	inBlock  bool
	curDepth int
	curUser  bool   // a user message
	partial  []byte // the unfinished last line of the current block
	shown    int    // how much of partial Flush has already written
	lineNo   int    // lines printed in the current block
	thinking thinkingSummary

	// tool id → the call begun: its depth and start label. Each key is a
	// view of its entry's buffer (events are valid only during Handle),
	// which goes to free for reuse once the entry is deleted.
	tools    map[string]toolCall
	free     [][]byte
	lbuf     []byte          // scratch for an end line's own label
	usage    streaming.Usage // the last usage reported, if hasUsage
	hasUsage bool
	printed  bool // anything printed yet
	runs     int
	buf      []byte   // scratch for a line being made
	lines    []string // scratch for tool output lines
	ci       ciMarkers
}

// NewPlain returns a plain renderer writing to w.
func NewPlain(w io.Writer, cfg Config) *Plain {
	p := &Plain{cfg: cfg, p: cfg.Palette, tools: map[string]toolCall{}}
	if p.p.Dim == nil {
		p.p = NewPalette(false)
	}
	p.ci, p.w = newCIMarkers(cfg, w)
	return p
}

// Flush writes what is buffered.
//
// The unfinished last line of streaming text is written first, so that a
// hung agent's last words are in the log; the line is finished in place
// when the rest of it arrives (append-only, no cursor movement).
func (p *Plain) Flush() error {
	p.showPartial()
	return p.w.Flush()
}

// showPartial writes what is new of the partial last line of the text block.
func (p *Plain) showPartial() {
	if !p.inBlock || len(p.partial) <= p.shown ||
		(p.curKind == streaming.KindThinkingDelta && p.cfg.Thinking != ThinkingFull) {
		return
	}
	cut := len(p.partial)
	// Whole characters only, and not a CR that may be half of a CRLF.
	for cut > p.shown && !utf8.FullRune(p.partial[lastRuneStart(p.partial[:cut]):cut]) {
		cut = lastRuneStart(p.partial[:cut])
	}
	if cut > p.shown && p.partial[cut-1] == '\r' {
		cut--
	}
	if cut <= p.shown {
		return
	}
	frag := string(p.partial[p.shown:cut])
	if p.shown == 0 {
		prefix, shown := p.lineParts(frag)
		p.emitStart(nil, p.curDepth, prefix)
		p.w.WriteString(shown)
	} else {
		p.w.WriteString(p.fragment(frag))
	}
	p.shown = cut
}

// view is b as a string, without a copy, for a line made in b and
// written out (nothing keeps it) before b is written again.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// lastRuneStart is the index of the start of the last rune of b.
func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return max(0, len(b)-1)
}

// fragment is how a piece of a line already started is shown.
func (p *Plain) fragment(s string) string {
	s = p.clean(s)
	if p.curKind == streaming.KindThinkingDelta {
		return p.p.Dim(s)
	}
	return s
}

// finishShown ends a line whose start showPartial wrote: the rest of the
// partial line, then rest, then the newline.
func (p *Plain) finishShown(rest string) {
	s := view(p.partial[p.shown:])
	if rest != "" {
		s += rest
	}
	p.w.WriteString(p.fragment(strings.TrimSuffix(s, "\r")))
	p.w.WriteByte('\n')
	p.partial = p.partial[:0]
	p.shown = 0
}

// cleanOutput sanitises tool output, letting SGR colour through with
// --allow-color (and nothing else).
func (p *Plain) cleanOutput(s string) string {
	return sanitize.String(s, sanitize.Options{AllowSGR: p.cfg.AllowColor})
}

func (p *Plain) clean(s string) string {
	return sanitize.String(s, sanitize.Options{})
}

func (p *Plain) depthOf(parent string) int {
	if parent == "" {
		return 0
	}
	if c, ok := p.tools[parent]; ok {
		return c.depth
	}
	return 1
}

// emitLine writes one finished line with the event's indent and timestamp.
func (p *Plain) emitLine(ev *streaming.Event, depth int, s string) {
	p.emitPrefixed(ev, depth, "", s)
}

// emitPrefixed is emitLine(ev, depth, prefix+s) without joining them.
func (p *Plain) emitPrefixed(ev *streaming.Event, depth int, prefix, s string) {
	p.emitStart(ev, depth, prefix)
	p.w.WriteString(s)
	p.w.WriteByte('\n')
}

// styledLine is emitLine(ev, depth, style(prefix+s)).
func (p *Plain) styledLine(ev *streaming.Event, depth int, style func(string) string, prefix, s string) {
	p.emitStart(ev, depth, "")
	p.styled(style, prefix, s)
	p.w.WriteByte('\n')
}

// styled writes style(prefix+s), without joining them when colour is off.
func (p *Plain) styled(style func(string) string, prefix, s string) {
	if p.p.off {
		p.w.WriteString(prefix)
		p.w.WriteString(s)
		return
	}
	p.w.WriteString(style(prefix + s))
}

// styledBytes writes style(string(b)), b itself when colour is off.
func (p *Plain) styledBytes(style func(string) string, b []byte) {
	if p.p.off {
		p.w.Write(b)
		return
	}
	p.w.WriteString(style(string(b)))
}

// emitStart writes the start of a line: timestamp, indent, prefix.
func (p *Plain) emitStart(ev *streaming.Event, depth int, prefix string) {
	if p.cfg.Timestamps && ev != nil && !ev.Time.IsZero() {
		p.w.WriteString(p.p.Dim(ev.Time.Local().Format("15:04:05")))
		p.w.WriteByte(' ')
	}
	for i := 0; i < depth; i++ {
		p.w.WriteString("  ")
	}
	p.w.WriteString(prefix)
	p.printed = true
}

// Handle renders one event.
func (p *Plain) Handle(ev *streaming.Event) error {
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
		for _, l := range Lines(p.ci.content(p.clean(ev.Text))) {
			p.emitLine(ev, p.depthOf(ev.Parent), l)
		}
		return p.err()
	case streaming.KindToolInputDelta, streaming.KindToolOutputDelta, streaming.KindMessageStart:
		return nil
	case streaming.KindMessageStop:
		if p.inBlock && string(p.curMsg) == ev.Message {
			p.endBlock()
		}
		return p.err()
	}
	p.endBlock()
	d := p.depthOf(ev.Parent)
	switch ev.Kind {
	case streaming.KindSessionStart:
		p.runs++
		if p.printed {
			p.emitLine(ev, 0, "")
		}
		// "● session ID · agent · model · cwd", the parts there are.
		b := append(p.buf[:0], "● "...)
		sep := ""
		if ev.SessionID != "" {
			b = append(append(b, "session "...), p.clean(ev.SessionID)...)
			sep = factSep
		}
		for _, s := range [...]string{ev.Agent, ev.Model, ev.CWD} {
			if s != "" {
				b = append(append(b, sep...), p.clean(s)...)
				sep = factSep
			}
		}
		p.buf = b
		p.emitStart(ev, 0, "")
		p.styledBytes(p.p.Dim, b)
		p.w.WriteByte('\n')
	case streaming.KindToolStart:
		p.emitPrefixed(ev, d, p.p.Cyan("▸ "), p.startTool(ev, d))
	case streaming.KindToolEnd:
		p.toolEnd(ev, d)
	case streaming.KindPlan:
		p.emitLine(ev, d, p.p.Bold("Plan"))
		for _, e := range ev.Entries {
			p.emitLine(ev, d+1, PlanMark(e.Status)+" "+p.clean(oneLine(e.Text)))
		}
	case streaming.KindPermissionRequest:
		var opts []string
		for _, o := range ev.Options {
			opts = append(opts, p.clean(o.Name))
		}
		line := p.p.Yellow("? permission") + " " + p.clean(ev.Name)
		if ev.Title != "" {
			line += " " + p.clean(oneLine(ev.Title))
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
		msg := p.clean(oneLine(ev.Text))
		if ev.Level == streaming.LevelWarning {
			p.ci.warning(msg)
			p.styledLine(ev, d, p.p.Yellow, "⚠ ", msg)
		} else {
			p.styledLine(ev, d, p.p.Dim, "· ", msg)
		}
	case streaming.KindUsage:
		if ev.Usage != nil {
			p.usage, p.hasUsage = *ev.Usage, true
		}
	case streaming.KindError:
		msg := p.clean(ev.Text)
		if ev.Fatal || ev.Level != streaming.LevelWarning {
			p.emitPrefixed(ev, d, p.p.Red("✗ error: "), p.ci.content(msg))
		} else {
			p.ci.warning(oneLine(msg))
			p.emitPrefixed(ev, d, p.p.Yellow("⚠ "), p.ci.content(msg))
		}
	case streaming.KindResult:
		p.resultLine(ev)
	case streaming.KindRaw:
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

func (p *Plain) err() error {
	// bufio.Writer keeps the first write error; report it.
	if _, err := p.w.Write(nil); err != nil {
		return err
	}
	return nil
}

// toolCall is a tool call begun: the nesting depth of its subagent work
// and the label of its start line, with what it was made from: the end
// line of the call reuses it (reading the input again costs as much as
// the rest of the line). All is copied (events are valid only during
// Handle) into buf: id, name, subject, title, label.
type toolCall struct {
	depth                 int
	buf                   []byte
	idEnd, nameEnd, inEnd int // where the id, name and subject end in buf
	titleEnd              int
	inputKept             bool // a large subject is not kept (nor the label reused)
}

// maxKeptInput is the largest tool subject kept to reuse the label.
const maxKeptInput = 4 << 10

// Buffers of ended calls kept for reuse: how many, and how large.
const (
	maxFree    = 256
	maxFreeCap = 16 << 10
)

func (c *toolCall) id() string    { return view(c.buf[:c.idEnd]) }
func (c *toolCall) label() string { return view(c.buf[c.titleEnd:]) }

// madeFrom reports whether the label was made from the end event's name,
// subject and title.
func (c *toolCall) madeFrom(ev *streaming.Event) bool {
	return c.inputKept && view(c.buf[c.idEnd:c.nameEnd]) == ev.Name &&
		view(c.buf[c.nameEnd:c.inEnd]) == ev.Subject && view(c.buf[c.inEnd:c.titleEnd]) == ev.Title
}

// startTool keeps a tool call begun at depth d and returns the label of
// its start line (valid until the call's entry is deleted).
func (p *Plain) startTool(ev *streaming.Event, d int) string {
	if old, ok := p.tools[ev.ID]; ok {
		// The id again: the entry goes (and with it the key, a view of
		// its buffer) before its buffer is reused.
		delete(p.tools, ev.ID)
		p.release(old.buf)
	}
	var b []byte
	if n := len(p.free); n > 0 {
		b, p.free[n-1] = p.free[n-1], nil
		p.free = p.free[:n-1]
	}
	c := toolCall{depth: d + 1}
	b = append(b, ev.ID...)
	c.idEnd = len(b)
	b = append(b, ev.Name...)
	c.nameEnd = len(b)
	if c.inputKept = len(ev.Subject) <= maxKeptInput; c.inputKept {
		b = append(b, ev.Subject...)
	}
	c.inEnd = len(b)
	b = append(b, ev.Title...)
	c.titleEnd = len(b)
	c.buf = p.appendLabel(b, ev)
	p.tools[c.id()] = c
	return c.label()
}

// release keeps the buffer of a deleted call's entry for reuse.
func (p *Plain) release(b []byte) {
	if len(p.free) < maxFree && cap(b) <= maxFreeCap {
		p.free = append(p.free, b[:0])
	}
}

// appendLabel appends a tool call's name and key argument.
func (p *Plain) appendLabel(b []byte, ev *streaming.Event) []byte {
	b = append(b, p.p.Bold(p.clean(ev.Name))...)
	if arg := KeyArg(ev); arg != "" {
		b = append(append(b, ' '), p.clean(TruncateRunes(arg, max(20, p.cfg.Width-len(ev.Name)-4)))...)
	}
	return b
}

func (p *Plain) toolEnd(ev *streaming.Event, d int) {
	// The end line's label is its start line's when made from the same
	// name, input and title.
	c, started := p.tools[ev.ID]
	var label string
	if started {
		delete(p.tools, ev.ID)
		// The label is written before the buffer is reused.
		defer p.release(c.buf)
	}
	if started && c.madeFrom(ev) {
		label = c.label()
	} else {
		p.lbuf = p.appendLabel(p.lbuf[:0], ev)
		label = view(p.lbuf)
	}
	// The facts, each after factSep.
	facts := p.buf[:0]
	if ev.ExitCode != nil {
		facts = strconv.AppendInt(append(facts, factSep+"exit "...), int64(*ev.ExitCode), 10)
	}
	if ev.DurationMS > 0 {
		facts = appendDuration(append(facts, factSep...), ev.DurationMS)
	}
	if ev.Status != streaming.ToolOK && ev.Status != streaming.ToolError {
		facts = append(append(facts, factSep...), ev.Status...)
	}
	p.buf = facts
	n := p.cfg.ToolLines
	if p.cfg.Tools == ToolsFull || p.ci.folds() {
		n = 0
	}
	var lines []string
	var h, omitted int
	if p.cfg.Tools != ToolsNone {
		// Only the lines shown are split off and sanitised: the output
		// can be megabytes.
		lines, h, omitted = previewText(p.lines, ev.Output, n, p.cleanOutput)
	}
	if len(lines) > 0 && p.ci.folds() {
		// In a CI log the end line is the header of the folded output.
		title := StatusMark(ev.Status) + " " + ev.Name
		if arg := KeyArg(ev); arg != "" {
			title += " " + arg
		}
		p.ci.groupStart(title + string(facts))
	} else {
		p.emitStart(ev, d, "")
		mark := StatusMark(ev.Status)
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
		p.buf = append(append(b, " more line"...), plural(omitted)...)
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

// resultLine is "── ✓ done · facts" or "── ✗ failed: reason · facts".
func (p *Plain) resultLine(ev *streaming.Event) {
	if !ev.OK {
		p.ci.errorAnnotation("agent run failed: " + oneLine(ev.Reason))
	}
	p.emitStart(ev, 0, "── ")
	if ev.OK {
		p.w.WriteString(p.p.Green("✓ done"))
	} else {
		p.w.WriteString(p.p.Red("✗ failed"))
		if ev.Reason != "" {
			p.styled(p.p.Red, ": ", p.clean(oneLine(ev.Reason)))
		}
	}
	u := ev.Usage
	if u == nil && p.hasUsage {
		u = &p.usage
	}
	if facts := appendResultFacts(p.buf[:0], ev.DurationMS, ev.Turns, u); len(facts) > 0 {
		p.buf = facts
		p.styledBytes(p.p.Dim, facts)
	}
	p.w.WriteByte('\n')
	p.hasUsage = false
}

// text prints assistant text and thinking as complete lines.
func (p *Plain) text(ev *streaming.Event) {
	if !p.inBlock || ev.Kind != p.curKind || ev.Block != p.curIndex || ev.Message != string(p.curMsg) {
		p.endBlock()
		p.inBlock = true
		p.curMsg = append(p.curMsg[:0], ev.Message...)
		p.curKind, p.curIndex = ev.Kind, ev.Block
		p.curDepth = p.depthOf(ev.Parent)
		p.curUser = ev.Role == streaming.RoleUser
		p.lineNo = 0
		p.thinking.reset()
	}
	if ev.Kind == streaming.KindThinkingDelta && p.cfg.Thinking != ThinkingFull {
		if p.cfg.Thinking == ThinkingSummary {
			p.thinking.add(ev.Text)
		}
		return
	}
	// Only the delta can hold new line ends: look for them there, and
	// print each finished line without copying what follows it.
	text := ev.Text
	if n := p.textLines(text); n > 0 {
		text = text[n:]
	}
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		if p.shown > 0 {
			p.finishShown(text[:i])
		} else if len(p.partial) == 0 {
			p.textLine(ev, text[:i])
		} else {
			p.partial = append(p.partial, text[:i]...)
			p.textLine(ev, view(p.partial))
			p.partial = p.partial[:0]
		}
		text = text[i+1:]
	}
	p.partial = append(p.partial, text...)
}

// spaces indents text lines (two per level).
const spaces = "                                "

// textLines is the fast path of text for what textLine would print
// unchanged: the complete lines at the start of text, when there is no
// partial line before them, no timestamp, no CI marker and nothing to
// sanitise in them (checked once for all). Assistant text at the top
// level is written in one piece; other lines get their indent and prefix
// as textLine gives them. It returns how much of text it printed.
func (p *Plain) textLines(text string) int {
	if len(p.partial) > 0 || p.cfg.Timestamps || p.cfg.CI != CINone ||
		p.curKind != streaming.KindTextDelta || 2*p.curDepth > len(spaces) {
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
	if !p.curUser && p.curDepth == 0 {
		p.w.WriteString(body)
		p.lineNo += strings.Count(body, "\n")
	} else {
		p.prefixedLines(body)
	}
	p.printed = true
	return end + 1
}

// prefixedLines writes body, complete lines of the current block, each
// with its indent and (in a user message) prefix as textLine gives them.
// The lines are put together in the writer's free buffer and handed over
// in one Write; a line that does not fit goes in pieces, which fill the
// buffer and flush it, as writing every line in pieces would.
func (p *Plain) prefixedLines(body string) {
	indent := spaces[:2*p.curDepth]
	b := p.w.AvailableBuffer()
	for len(body) > 0 {
		i := strings.IndexByte(body, '\n')
		prefix := ""
		if p.curUser {
			if p.lineNo == 0 {
				prefix = p.p.Blue("› ")
			} else if i > 0 {
				prefix = "  "
			}
		}
		if len(indent)+len(prefix)+i+1 <= cap(b)-len(b) {
			b = append(append(append(b, indent...), prefix...), body[:i+1]...)
		} else {
			p.w.Write(b)
			p.w.WriteString(indent)
			p.w.WriteString(prefix)
			p.w.WriteString(body[:i+1])
			b = p.w.AvailableBuffer()
		}
		body = body[i+1:]
		p.lineNo++
	}
	p.w.Write(b)
}

func (p *Plain) textLine(ev *streaming.Event, s string) {
	// A CRLF line end is a line end, not a carriage return to show.
	prefix, s := p.lineParts(strings.TrimSuffix(s, "\r"))
	p.emitPrefixed(ev, p.curDepth, prefix, s)
}

// lineParts is the prefix and the shown form of a text line of the current
// block (or of the start of one).
func (p *Plain) lineParts(s string) (prefix, shown string) {
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

// endBlock finishes the current text block: its partial last line, or the
// thinking summary.
func (p *Plain) endBlock() {
	if !p.inBlock {
		return
	}
	p.inBlock = false
	if p.shown > 0 {
		p.finishShown("")
	} else if len(p.partial) > 0 {
		p.textLine(nil, view(p.partial))
		p.partial = p.partial[:0]
	}
	if p.curKind == streaming.KindThinkingDelta && p.cfg.Thinking == ThinkingSummary && p.thinking.n > 0 {
		p.emitLine(nil, p.curDepth, p.p.Dim("✻ "+p.thinking.line(p.cfg.Width-2-2*p.curDepth)))
	}
}

// Finish writes the closing line of a run that did not finish.
func (p *Plain) Finish(s Summary) error {
	p.endBlock()
	switch {
	case s.Interrupted:
		p.emitLine(nil, 0, "── "+p.p.Yellow("⊘ interrupted"))
	case s.Outcome == streaming.Incomplete:
		p.ci.errorAnnotation("agent run incomplete: " + s.Reason)
		line := "── " + p.p.Yellow("… incomplete: "+p.clean(s.Reason))
		var u *streaming.Usage
		if p.hasUsage {
			u = &p.usage
		}
		if facts := appendResultFacts(nil, 0, 0, u); len(facts) > 0 {
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

// thinkingSummary keeps the start of a thinking block for its one-line summary.
type thinkingSummary struct {
	head []byte
	n    int // bytes of thinking seen
}

func (t *thinkingSummary) reset() {
	t.head, t.n = t.head[:0], 0
}

func (t *thinkingSummary) add(s string) {
	t.n += len(s)
	if len(t.head) < 400 {
		t.head = append(t.head, s[:min(len(s), 400-len(t.head))]...)
	}
}

// line is "Thinking: first words… (1.2k chars)".
func (t *thinkingSummary) line(width int) string {
	text := strings.Join(strings.Fields(sanitize.String(string(t.head), sanitize.Options{})), " ")
	suffix := fmt.Sprintf(" (%s chars)", Tokens(int64(t.n)))
	return "thinking: " + TruncateRunes(text, max(10, width-10-len(suffix))) + suffix
}
