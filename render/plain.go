package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/sanitize"
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

	cur      blockID
	inBlock  bool
	curDepth int
	curRole  string
	partial  []byte // the unfinished last line of the current block
	shown    int    // how much of partial Flush has already written
	lineNo   int    // lines printed in the current block
	thinking thinkingSummary

	depth   map[string]int       // tool id → nesting depth of its subagent work
	labels  map[string]toolLabel // tool id → the label its start line showed
	result  *streaming.Event
	usage   *streaming.Usage
	printed bool // anything printed yet
	runs    int
	buf     []byte
	ci      ciMarkers
}

// NewPlain returns a plain renderer writing to w.
func NewPlain(w io.Writer, cfg Config) *Plain {
	p := &Plain{cfg: cfg, p: cfg.Palette, depth: map[string]int{}}
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
		(p.cur.kind == streaming.KindThinkingDelta && p.cfg.Thinking != ThinkingFull) {
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
	if p.cur.kind == streaming.KindThinkingDelta {
		return p.p.Dim(s)
	}
	return s
}

// finishShown ends a line whose start showPartial wrote: the rest of the
// partial line, then rest, then the newline.
func (p *Plain) finishShown(rest string) {
	p.w.WriteString(p.fragment(strings.TrimSuffix(string(p.partial[p.shown:])+rest, "\r")))
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
	if d, ok := p.depth[parent]; ok {
		return d
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
		if p.inBlock && p.cur.msg == ev.Message {
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
		var parts []string
		if ev.SessionID != "" {
			parts = append(parts, "session "+p.clean(ev.SessionID))
		}
		for _, s := range []string{ev.Agent, ev.Model, ev.CWD} {
			if s != "" {
				parts = append(parts, p.clean(s))
			}
		}
		p.emitLine(ev, 0, p.p.Dim("● "+strings.Join(parts, " · ")))
	case streaming.KindToolStart:
		p.depth[ev.ID] = d + 1
		p.emitLine(ev, d, p.p.Cyan("▸ ")+p.toolLabel(ev))
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
		p.emitLine(ev, d, p.p.Dim("  → "+p.clean(ev.Choice)))
	case streaming.KindModeChange:
		p.emitLine(ev, d, p.p.Dim("· mode "+p.clean(ev.From)+" → "+p.clean(ev.To)))
	case streaming.KindStatus:
		if ev.Level == streaming.LevelWarning {
			p.ci.warning(p.clean(oneLine(ev.Text)))
			p.emitLine(ev, d, p.p.Yellow("⚠ "+p.clean(oneLine(ev.Text))))
		} else {
			p.emitLine(ev, d, p.p.Dim("· "+p.clean(oneLine(ev.Text))))
		}
	case streaming.KindUsage:
		if ev.Usage != nil {
			u := *ev.Usage
			p.usage = &u
		}
	case streaming.KindError:
		msg := p.clean(ev.Text)
		if ev.Fatal || ev.Level != streaming.LevelWarning {
			p.emitLine(ev, d, p.p.Red("✗ error: ")+p.ci.content(msg))
		} else {
			p.ci.warning(oneLine(msg))
			p.emitLine(ev, d, p.p.Yellow("⚠ ")+p.ci.content(msg))
		}
	case streaming.KindResult:
		r := *ev
		p.result = &r
		p.resultLine(ev)
	case streaming.KindRaw:
		p.emitLine(ev, 0, p.ci.content(p.clean(ev.Text)))
	case streaming.KindUnknown:
		t := ev.Type
		if t == "" {
			t = "?"
		}
		p.emitLine(ev, d, p.p.Dim("· unknown event "+p.clean(t)))
	case streaming.KindNotice:
		p.emitLine(ev, 0, p.p.Yellow("agentfmt: "+p.clean(ev.Text)))
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

// toolLabel is a tool call's name and key argument; the end line of a call
// reuses its start line's (reading the input again costs as much as the
// rest of the line).
type toolLabel struct{ name, input, title, label string }

func (p *Plain) toolLabel(ev *streaming.Event) string {
	if c, ok := p.labels[ev.ID]; ok && ev.Kind == streaming.KindToolEnd {
		delete(p.labels, ev.ID)
		if c.name == ev.Name && c.input == ev.Input && c.title == ev.Title {
			return c.label
		}
	}
	label := p.p.Bold(p.clean(ev.Name))
	if arg := KeyArg(ev); arg != "" {
		label += " " + p.clean(TruncateRunes(arg, max(20, p.cfg.Width-len(ev.Name)-4)))
	}
	if ev.Kind == streaming.KindToolStart {
		if p.labels == nil {
			p.labels = map[string]toolLabel{}
		}
		p.labels[ev.ID] = toolLabel{ev.Name, ev.Input, ev.Title, label}
	}
	return label
}

func (p *Plain) toolEnd(ev *streaming.Event, d int) {
	delete(p.depth, ev.ID)
	mark := StatusMark(ev.Status)
	switch ev.Status {
	case streaming.ToolOK:
		mark = p.p.Green(mark)
	case streaming.ToolError:
		mark = p.p.Red(mark)
	default:
		mark = p.p.Yellow(mark)
	}
	var facts []string
	if ev.ExitCode != nil {
		facts = append(facts, fmt.Sprintf("exit %d", *ev.ExitCode))
	}
	if ev.DurationMS > 0 {
		facts = append(facts, Duration(ev.DurationMS))
	}
	if ev.Status != streaming.ToolOK && ev.Status != streaming.ToolError {
		facts = append(facts, string(ev.Status))
	}
	line := mark + " " + p.toolLabel(ev)
	if len(facts) > 0 {
		line += p.p.Dim(" · " + strings.Join(facts, " · "))
	}
	n := p.cfg.ToolLines
	if p.cfg.Tools == ToolsFull || p.ci.folds() {
		n = 0
	}
	var head, tail []string
	var omitted int
	if p.cfg.Tools != ToolsNone {
		// Only the lines shown are split off and sanitised: the output
		// can be megabytes.
		head, omitted, tail = PreviewText(ev.Output, n, p.cleanOutput)
	}
	if len(head) > 0 && p.ci.folds() {
		// In a CI log the end line is the header of the folded output.
		title := StatusMark(ev.Status) + " " + ev.Name
		if arg := KeyArg(ev); arg != "" {
			title += " " + arg
		}
		if len(facts) > 0 {
			title += " · " + strings.Join(facts, " · ")
		}
		p.ci.groupStart(title)
	} else {
		p.emitLine(ev, d, line)
	}
	if len(head) == 0 {
		return
	}
	bar := p.p.Dim("│ ")
	for _, l := range head {
		p.emitLine(ev, d+1, bar+p.ci.content(l))
	}
	if omitted > 0 {
		p.emitLine(ev, d+1, p.p.Dim(fmt.Sprintf("│ … %d more line%s", omitted, plural(omitted))))
	}
	for _, l := range tail {
		p.emitLine(ev, d+1, bar+p.ci.content(l))
	}
	p.ci.groupEnd()
}

func (p *Plain) resultLine(ev *streaming.Event) {
	facts := ResultFacts(ev, p.usage)
	var head string
	if ev.OK {
		head = p.p.Green("✓ done")
	} else {
		head = p.p.Red("✗ failed")
		if ev.Reason != "" {
			head += p.p.Red(": " + p.clean(oneLine(ev.Reason)))
		}
		p.ci.errorAnnotation("agent run failed: " + oneLine(ev.Reason))
	}
	line := "── " + head
	if len(facts) > 0 {
		line += p.p.Dim(" · " + strings.Join(facts, " · "))
	}
	p.emitLine(ev, 0, line)
	p.usage = nil
}

// text prints assistant text and thinking as complete lines.
func (p *Plain) text(ev *streaming.Event) {
	id := blockID{msg: ev.Message, kind: ev.Kind, index: ev.Block}
	if !p.inBlock || id != p.cur {
		p.endBlock()
		p.inBlock = true
		p.cur = id
		p.curDepth = p.depthOf(ev.Parent)
		p.curRole = ev.Role
		p.lineNo = 0
		p.thinking = thinkingSummary{}
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
			p.textLine(ev, string(p.partial))
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
		p.cur.kind != streaming.KindTextDelta || 2*p.curDepth > len(spaces) {
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
	if p.curRole != streaming.RoleUser && p.curDepth == 0 {
		p.w.WriteString(body)
		p.lineNo += strings.Count(body, "\n")
	} else {
		indent := spaces[:2*p.curDepth]
		for len(body) > 0 {
			i := strings.IndexByte(body, '\n')
			p.w.WriteString(indent)
			if p.curRole == streaming.RoleUser {
				if p.lineNo == 0 {
					p.w.WriteString(p.p.Blue("› "))
				} else if i > 0 {
					p.w.WriteString("  ")
				}
			}
			p.w.WriteString(body[:i+1])
			body = body[i+1:]
			p.lineNo++
		}
	}
	p.printed = true
	return end + 1
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
	case p.cur.kind == streaming.KindThinkingDelta:
		s = p.p.Dim("┆ " + s)
	case p.curRole == streaming.RoleUser:
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
		p.textLine(nil, string(p.partial))
		p.partial = p.partial[:0]
	}
	if p.cur.kind == streaming.KindThinkingDelta && p.cfg.Thinking == ThinkingSummary && p.thinking.n > 0 {
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
		if facts := ResultFacts(nil, p.usage); len(facts) > 0 {
			line += p.p.Dim(" · " + strings.Join(facts, " · "))
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
