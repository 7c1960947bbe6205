package render

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/streaming"
)

func init() {
	Register("markdown", func(w io.Writer, cfg Config) Renderer { return NewMarkdown(w, cfg) })
}

// Markdown writes a transcript fit for a pull-request comment or a job
// summary ($GITHUB_STEP_SUMMARY), append-only as the events come:
//
//   - a heading per run (agent, model), then what happened, in order;
//   - the assistant's text as written (it is markdown already); subagent
//     text as a quote; the prompt echo as a quote;
//   - thinking omitted (--thinking none), as a one-line quote (summary,
//     the default) or quoted whole (full);
//   - tool calls as a compact list — status, name, key argument, exit
//     code, duration — with the output trimmed (--tools, --tool-lines) in
//     a fenced block under the item;
//   - warnings and errors as quotes, the plan as a task list, and a result
//     line per run (outcome, duration, turns, tokens, cost).
//
// Content is untrusted and cannot break the document's structure: tool
// output sits in a fence longer than any backtick run inside it; a fence
// the assistant opened and never closed is closed at the end of its block;
// raw HTML in text is shown as text ("<details>" cannot swallow what
// follows), and @mentions are defused (a transcript posted as a comment
// pings nobody). Inside code spans and fences text is left as it is.
// Control characters are shown visibly, as everywhere.
type Markdown struct {
	w     *bufio.Writer
	cfg   Config
	facts RunFacts

	last    elem // the kind of the last element written
	heading bool // the current run has its heading

	// The text block being written.
	inBlock bool
	cur     blockID
	role    string
	parent  string
	partial []byte
	fence   string // a fence the block's text opened, not yet closed
	lineNo  int
	blanks  int // blank lines held until the next line of the block
	think   thinkingSummary

	open    map[string]streaming.Event // tool calls started, not ended
	openOrd []string
}

type elem int

const (
	elemNone elem = iota
	elemHeading
	elemText
	elemList
	elemQuote
	elemLine
)

// NewMarkdown returns a markdown renderer writing to w.
func NewMarkdown(w io.Writer, cfg Config) *Markdown {
	if cfg.ToolLines <= 0 {
		cfg.ToolLines = 6
	}
	if cfg.Thinking == "" {
		cfg.Thinking = ThinkingSummary
	}
	if cfg.Tools == "" {
		cfg.Tools = ToolsPreview
	}
	return &Markdown{w: bufio.NewWriterSize(w, outBuffer), cfg: cfg, open: map[string]streaming.Event{}}
}

// Flush writes what is buffered.
func (m *Markdown) Flush() error { return m.w.Flush() }

// begin starts an element of kind k: a blank line separates it from the
// previous element unless both are items of one list or lines of one
// quote.
func (m *Markdown) begin(k elem) {
	if m.last != elemNone && !(k == m.last && (k == elemList || k == elemQuote)) {
		m.w.WriteByte('\n')
	}
	m.last = k
}

func (m *Markdown) ensureHeading(ev *streaming.Event) {
	if m.heading {
		return
	}
	m.heading = true
	m.facts.Runs = max(m.facts.Runs, 1)
	m.begin(elemHeading)
	title := fmt.Sprintf("## Run %d", m.facts.Runs)
	if ev != nil && ev.Kind == streaming.KindSessionStart {
		if ev.Agent != "" {
			title += " · " + inline(ev.Agent)
		}
		if ev.Model != "" {
			title += " · " + codeSpan(ev.Model)
		}
	}
	m.w.WriteString(title + "\n")
	if ev != nil && ev.Kind == streaming.KindSessionStart && (ev.SessionID != "" || ev.CWD != "") {
		var parts []string
		if ev.SessionID != "" {
			parts = append(parts, "session "+codeSpan(ev.SessionID))
		}
		if ev.CWD != "" {
			parts = append(parts, "in "+codeSpan(ev.CWD))
		}
		m.begin(elemLine)
		m.w.WriteString("<sub>" + strings.Join(parts, " ") + "</sub>\n")
	}
}

// Handle renders one event.
func (m *Markdown) Handle(ev *streaming.Event) error {
	m.facts.Handle(ev)
	switch ev.Kind {
	case streaming.KindTextDelta, streaming.KindThinkingDelta:
		m.text(ev)
		return m.err()
	case streaming.KindToolInputDelta, streaming.KindToolOutputDelta, streaming.KindMessageStart, streaming.KindUsage:
		return nil
	case streaming.KindMessageStop:
		if m.inBlock && m.cur.msg == ev.Message {
			m.endBlock()
		}
		return m.err()
	case streaming.KindSessionStart:
		m.endBlock()
		m.heading = false
		m.ensureHeading(ev)
		return m.err()
	}
	m.endBlock()
	switch ev.Kind {
	case streaming.KindTextRevision, streaming.KindThinkingRevision:
		if ev.Kind == streaming.KindThinkingRevision && m.cfg.Thinking != ThinkingFull {
			return nil
		}
		m.ensureHeading(nil)
		m.begin(elemLine)
		m.w.WriteString("*Revised:*\n")
		m.cur = blockID{msg: strings.Clone(ev.Message), kind: streaming.KindTextDelta, index: ev.Block}
		m.inBlock, m.role, m.parent, m.lineNo, m.blanks = true, strings.Clone(ev.Role), strings.Clone(ev.Parent), 0, 0
		if ev.Kind == streaming.KindThinkingRevision {
			m.cur.kind = streaming.KindThinkingDelta
		}
		m.addText(ev.Text)
		m.endBlock()
	case streaming.KindToolStart:
		t := keptTool(ev)
		if _, ok := m.open[t.ID]; !ok {
			m.openOrd = append(m.openOrd, t.ID)
		}
		m.open[t.ID] = t
	case streaming.KindToolEnd:
		m.closeTool(ev.ID)
		m.ensureHeading(nil)
		m.tool(ev)
	case streaming.KindPlan:
		m.ensureHeading(nil)
		m.begin(elemLine)
		m.w.WriteString("**Plan**\n\n")
		for _, e := range ev.Entries {
			box := "- [ ] "
			switch PlanMark(e.Status) {
			case "☑":
				box = "- [x] "
			case "◐":
				box = "- [ ] ◐ "
			case "☒":
				box = "- [ ] ~~"
			}
			text := inline(oneLine(e.Text))
			if strings.HasSuffix(box, "~~") {
				text += "~~"
			}
			m.w.WriteString(box + text + "\n")
		}
		m.last = elemList
	case streaming.KindPermissionRequest:
		m.ensureHeading(nil)
		m.begin(elemList)
		line := "- ? permission for **" + inline(ev.Name) + "**"
		if ev.Title != "" {
			line += " " + codeSpan(oneLine(ev.Title))
		}
		var opts []string
		for _, o := range ev.Options {
			opts = append(opts, inline(o.Name))
		}
		if len(opts) > 0 {
			line += " (" + strings.Join(opts, " / ") + ")"
		}
		m.w.WriteString(line + "\n")
	case streaming.KindPermissionResponse:
		m.ensureHeading(nil)
		m.begin(elemList)
		m.w.WriteString("- → " + inline(ev.Choice) + "\n")
	case streaming.KindModeChange:
		m.ensureHeading(nil)
		m.begin(elemLine)
		m.w.WriteString("*mode " + inline(ev.From) + " → " + inline(ev.To) + "*\n")
	case streaming.KindStatus:
		if ev.Level == streaming.LevelWarning {
			m.ensureHeading(nil)
			m.quote("⚠️ " + inline(oneLine(ev.Text)))
		}
	case streaming.KindError:
		m.ensureHeading(nil)
		if ev.Fatal || ev.Level != streaming.LevelWarning {
			m.quoteText("**Error:** ", ev.Text)
		} else {
			m.quoteText("⚠️ ", ev.Text)
		}
	case streaming.KindResult:
		m.ensureHeading(nil)
		m.begin(elemLine)
		m.w.WriteString(m.outcomeLine(ev.OK, false, ev.Reason) + "\n")
	case streaming.KindRaw:
		m.ensureHeading(nil)
		m.quote(codeSpan(ev.Text))
	case streaming.KindNotice:
		m.ensureHeading(nil)
		m.quote("*agentfmt: " + inline(oneLine(ev.Text)) + "*")
	}
	return m.err()
}

func (m *Markdown) err() error {
	_, err := m.w.Write(nil)
	return err
}

func (m *Markdown) quote(line string) {
	m.begin(elemQuote)
	m.w.WriteString("> " + line + "\n")
}

// quoteText quotes a multi-line text, the first line after a lead.
func (m *Markdown) quoteText(lead, text string) {
	lines := Lines(clean(text))
	if len(lines) == 0 {
		lines = []string{""}
	}
	m.begin(elemQuote)
	for i, l := range lines {
		if i == 0 {
			l = lead + escapeProse(l)
		} else {
			l = escapeProse(l)
		}
		m.w.WriteString(strings.TrimRight("> "+l, " ") + "\n")
	}
	m.last = elemLine // a following quote starts a new one
}

// keptTool is what tool needs of a tool call's start event (Finish sets
// the status), copied: it is kept past Handle, for Finish to show the call
// if it never ends.
func keptTool(ev *streaming.Event) streaming.Event {
	t := streaming.Event{Kind: ev.Kind, ID: strings.Clone(ev.ID), Parent: strings.Clone(ev.Parent),
		Name: strings.Clone(ev.Name), Input: strings.Clone(ev.Input), Title: strings.Clone(ev.Title), Subject: strings.Clone(ev.Subject),
		Output: strings.Clone(ev.Output), DurationMS: ev.DurationMS}
	if ev.ExitCode != nil {
		t.ExitCode = streaming.IntPtr(*ev.ExitCode)
	}
	return t
}

func (m *Markdown) closeTool(id string) {
	if _, ok := m.open[id]; !ok {
		return
	}
	delete(m.open, id)
	for i, o := range m.openOrd {
		if o == id {
			m.openOrd = append(m.openOrd[:i], m.openOrd[i+1:]...)
			break
		}
	}
}

// tool writes a finished tool call as a list item with its output.
func (m *Markdown) tool(ev *streaming.Event) {
	m.begin(elemList)
	line := "- " + StatusMark(ev.Status) + " "
	if ev.Parent != "" {
		line = "- ↳ " + StatusMark(ev.Status) + " "
	}
	line += "**" + inline(ev.Name) + "**"
	if arg := KeyArg(ev); arg != "" {
		line += " " + codeSpan(TruncateRunes(arg, 200))
	}
	var facts []string
	if ev.ExitCode != nil {
		facts = append(facts, fmt.Sprintf("exit %d", *ev.ExitCode))
	}
	if ev.DurationMS > 0 {
		facts = append(facts, Duration(ev.DurationMS))
	}
	if ev.Status != streaming.ToolOK && ev.Status != streaming.ToolError && ev.Status != "" {
		facts = append(facts, string(ev.Status))
	}
	if len(facts) > 0 {
		line += " · " + strings.Join(facts, " · ")
	}
	m.w.WriteString(line + "\n")
	if m.cfg.Tools == ToolsNone {
		return
	}
	lines := Lines(clean(ev.Output))
	if len(lines) == 0 {
		return
	}
	n := m.cfg.ToolLines
	if m.cfg.Tools == ToolsFull {
		n = 0
	}
	head, omitted, tail := Preview(lines, n)
	body := append([]string(nil), head...)
	if omitted > 0 {
		body = append(body, fmt.Sprintf("… %d more line%s …", omitted, plural(omitted)))
	}
	body = append(body, tail...)
	m.fenced("  ", body)
}

// fenced writes lines in a code fence, indented: the fence is longer than
// any run of backticks in them, so nothing inside can close it.
func (m *Markdown) fenced(indent string, lines []string) {
	fence := Fence(strings.Join(lines, "\n"))
	m.w.WriteString(indent + fence + "\n")
	for _, l := range lines {
		m.w.WriteString(strings.TrimRight(indent+l, " \t") + "\n")
	}
	m.w.WriteString(indent + fence + "\n")
}

// Fence returns a backtick fence longer than any backtick run in s (at
// least three).
func Fence(s string) string {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// text writes assistant text, prompt echoes and thinking.
func (m *Markdown) text(ev *streaming.Event) {
	id := blockID{msg: ev.Message, kind: ev.Kind, index: ev.Block}
	if !m.inBlock || id != m.cur {
		m.endBlock()
		m.inBlock = true
		m.cur = id
		m.cur.msg = strings.Clone(ev.Message) // kept past Handle
		m.role, m.parent = strings.Clone(ev.Role), strings.Clone(ev.Parent)
		m.lineNo, m.blanks = 0, 0
		m.fence = ""
		m.think = thinkingSummary{}
	}
	if ev.Kind == streaming.KindThinkingDelta && m.cfg.Thinking != ThinkingFull {
		if m.cfg.Thinking == ThinkingSummary {
			m.think.add(ev.Text)
		}
		return
	}
	m.addText(ev.Text)
}

func (m *Markdown) addText(s string) {
	m.partial = append(m.partial, s...)
	for {
		// (Not strings.IndexByte(string(m.partial)), which copies all
		// that is left for each line.)
		i := bytes.IndexByte(m.partial, '\n')
		if i < 0 {
			break
		}
		m.textLine(string(m.partial[:i]))
		m.partial = m.partial[i+1:]
	}
	if len(m.partial) == 0 {
		m.partial = m.partial[:0]
	}
}

// quoted reports whether the current block is written as a quote.
func (m *Markdown) quoted() bool {
	return m.parent != "" || m.role == streaming.RoleUser || m.cur.kind == streaming.KindThinkingDelta
}

func (m *Markdown) textLine(s string) {
	s = clean(s)
	// Blank lines are written only between lines of the block: none
	// before its first line or after its last.
	if strings.TrimSpace(s) == "" {
		if m.lineNo > 0 {
			m.blanks++
		}
		return
	}
	for ; m.blanks > 0; m.blanks-- {
		if m.quoted() {
			m.w.WriteString(">\n")
		} else {
			m.w.WriteString("\n")
		}
	}
	if m.lineNo == 0 {
		if m.quoted() {
			m.ensureHeading(nil)
			m.begin(elemLine)
		} else {
			m.ensureHeading(nil)
			m.begin(elemText)
		}
	}
	// Fences the text opens and closes; inside one, text is left alone.
	if f := fenceOf(s); f != "" {
		switch {
		case m.fence == "":
			m.fence = f
		case f[0] == m.fence[0] && len(f) >= len(m.fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), f[:1])) == "":
			m.fence = ""
		}
	} else if m.fence == "" {
		s = escapeProse(s)
	}
	prefix := ""
	if m.quoted() {
		prefix = "> "
		if m.lineNo == 0 {
			switch {
			case m.cur.kind == streaming.KindThinkingDelta:
				prefix += "*Thinking:* "
			case m.role == streaming.RoleUser:
				prefix += "**Prompt:** "
			}
		}
	}
	m.lineNo++
	m.w.WriteString(strings.TrimRight(prefix+s, " ") + "\n")
}

// endBlock finishes the current text block: its last line, a fence it
// left open, or the thinking summary.
func (m *Markdown) endBlock() {
	if !m.inBlock {
		return
	}
	if len(m.partial) > 0 {
		m.textLine(string(m.partial))
		m.partial = m.partial[:0]
	}
	if m.fence != "" {
		prefix := ""
		if m.quoted() {
			prefix = "> "
		}
		m.w.WriteString(prefix + m.fence + "\n")
		m.fence = ""
	}
	if m.cur.kind == streaming.KindThinkingDelta && m.cfg.Thinking == ThinkingSummary && m.think.n > 0 {
		m.ensureHeading(nil)
		m.begin(elemLine)
		m.w.WriteString("> *" + inline(strings.NewReplacer("**", "", "__", "").Replace(m.think.line(100))) + "*\n")
	}
	m.inBlock = false
	m.blanks = 0
}

// outcomeLine is the bold result line of a run with its facts.
func (m *Markdown) outcomeLine(ok, incomplete bool, reason string) string {
	var head string
	switch {
	case ok:
		head = "**✓ Done**"
	case incomplete:
		head = "**… Incomplete**"
	default:
		head = "**✗ Failed**"
	}
	if !ok && reason != "" {
		head += ": " + inline(oneLine(reason))
	}
	if facts := m.facts.Facts(); len(facts) > 0 {
		head += " · " + strings.Join(facts, " · ")
	}
	return head
}

// Finish writes the end of a run that did not finish, and flushes.
func (m *Markdown) Finish(s Summary) error {
	m.endBlock()
	for _, id := range m.openOrd {
		ev := m.open[id]
		ev.Kind = streaming.KindToolEnd
		ev.Status = streaming.ToolIncomplete
		m.tool(&ev)
	}
	m.open, m.openOrd = map[string]streaming.Event{}, nil
	switch {
	case s.Interrupted:
		m.ensureHeading(nil)
		m.begin(elemLine)
		m.w.WriteString("**⊘ Interrupted**\n")
	case s.Outcome == streaming.Incomplete:
		m.ensureHeading(nil)
		m.begin(elemLine)
		m.w.WriteString(m.outcomeLine(false, true, s.Reason) + "\n")
	}
	if s.UntilMissing {
		m.begin(elemLine)
		m.w.WriteString("**The final answer lacks the completion marker** " + codeSpan(m.cfg.Until) + "\n")
	}
	return m.w.Flush()
}

// clean shows control characters visibly.
func clean(s string) string { return sanitize.String(s, sanitize.Options{}) }

// fenceOf returns the fence a line opens or closes (up to three spaces,
// then three or more backticks or tildes), or "".
func fenceOf(s string) string {
	t := s
	for i := 0; i < 3 && strings.HasPrefix(t, " "); i++ {
		t = t[1:]
	}
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && strings.Contains(t[n:], "`")) {
		return ""
	}
	return t[:n]
}

// codeSpan returns s as inline code: one line, delimited by a backtick
// run longer than any inside it.
func codeSpan(s string) string {
	s = clean(oneLine(s))
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	d := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return d + s + d
}

// inline escapes a short text (a name, a reason) for a markdown line: one
// line (a newline in a tool name must not end a list item or a table row).
func inline(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = strings.Join(strings.Fields(s), " ")
	}
	s = clean(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '~', '#':
			b.WriteByte('\\')
		case '@':
			b.WriteString("@\u200b")
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// escapeProse makes a line of prose safe to embed: outside code spans,
// "<" before a tag-like character becomes "&lt;" (no raw HTML, no
// comments that hide the rest) and "@name" gets a zero-width space (no
// mentions). Markdown itself (emphasis, links, lists) is kept.
func escapeProse(s string) string {
	if !strings.ContainsAny(s, "<@") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c == '`' {
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			if end := closingRun(s, i+n, n); end >= 0 {
				b.WriteString(s[i:end])
				i = end
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		if c == '<' && i+1 < len(s) && tagStart(s[i+1]) {
			b.WriteString("&lt;")
			i++
			continue
		}
		if c == '@' && i+1 < len(s) && isWordByte(s[i+1]) && (i == 0 || !isWordByte(s[i-1])) {
			b.WriteString("@\u200b")
			i++
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// closingRun finds a run of exactly n backticks from i and returns the
// index after it, or -1.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return j
		}
		i = j
	}
	return -1
}

func tagStart(c byte) bool {
	return c == '/' || c == '!' || c == '?' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// RunFacts collects what a summary of the last run says: agent, model,
// outcome, duration, turns, tokens, cost and tool calls. It is a
// streaming.Handler; the markdown renderer and the job summary use it.
// What it keeps of events is copied (events are valid only during Handle).
type RunFacts struct {
	Runs      int
	Agent     string
	Model     string
	SessionID string
	Result    RunResult       // the run's result, if one came
	Usage     streaming.Usage // the last usage reported, if HasUsage
	HasUsage  bool
	ToolCalls int
	Failed    int // tool calls that failed or were declined
	First     time.Time
	Last      time.Time

	tools []toolCount // calls by tool name, in the order of first calls
}

// RunResult is what RunFacts keeps of a run's result event.
type RunResult struct {
	Came       bool // a result came
	DurationMS int64
	Turns      int
	Usage      streaming.Usage // if HasUsage
	HasUsage   bool
}

// toolCount is the number of calls of one tool. (A count in a map by name
// could not be updated without storing the event's name as the key.)
type toolCount struct {
	name  string
	calls int
}

// Handle notes one event.
func (f *RunFacts) Handle(ev *streaming.Event) error {
	if ev.Kind == streaming.KindSessionStart {
		*f = RunFacts{Runs: f.Runs + 1, Agent: kept(f.Agent, ev.Agent), Model: kept(f.Model, ev.Model),
			SessionID: kept(f.SessionID, ev.SessionID), tools: f.tools[:0]}
	}
	if !ev.Time.IsZero() {
		if f.First.IsZero() {
			f.First = ev.Time
		}
		f.Last = ev.Time
	}
	if f.Agent == "" && ev.Agent != "" {
		f.Agent = strings.Clone(ev.Agent)
	}
	switch ev.Kind {
	case streaming.KindUsage:
		if ev.Usage != nil {
			f.Usage, f.HasUsage = *ev.Usage, true
		}
	case streaming.KindToolEnd:
		f.countTool(ev.Name)
		f.ToolCalls++
		if ev.Status == streaming.ToolError || ev.Status == streaming.ToolDeclined {
			f.Failed++
		}
	case streaming.KindResult:
		f.Result = RunResult{Came: true, DurationMS: ev.DurationMS, Turns: ev.Turns}
		if ev.Usage != nil {
			f.Result.Usage, f.Result.HasUsage = *ev.Usage, true
		}
	}
	return nil
}

// kept is s, copied unless it is old.
func kept(old, s string) string {
	if s == old {
		return old
	}
	return strings.Clone(s)
}

// countTool counts a call of the tool name. Runs call few tools: they
// are looked for in order.
func (f *RunFacts) countTool(name string) {
	for i := range f.tools {
		if f.tools[i].name == name {
			f.tools[i].calls++
			return
		}
	}
	f.tools = append(f.tools, toolCount{strings.Clone(name), 1})
}

// usage is the usage the result gives, or else the last one reported.
func (f *RunFacts) usage() *streaming.Usage {
	switch {
	case f.Result.HasUsage:
		return &f.Result.Usage
	case f.HasUsage:
		return &f.Usage
	}
	return nil
}

// Facts are the run's duration, turns, tokens and cost, as the plain
// renderer's result line shows them. Without a result, the duration is
// the span of the event times when the agent gives them.
func (f *RunFacts) Facts() []string {
	dur := f.Result.DurationMS
	if !f.Result.Came && !f.First.IsZero() && f.Last.After(f.First) {
		dur = f.Last.Sub(f.First).Milliseconds()
	}
	return splitFacts(appendResultFacts(nil, dur, f.Result.Turns, f.usage()))
}

// ToolList is "7 (1 failed): Bash ×4, Read ×2, Edit".
func (f *RunFacts) ToolList() string {
	if f.ToolCalls == 0 {
		return "none"
	}
	tools := slices.Clone(f.tools)
	sort.Slice(tools, func(i, j int) bool {
		if tools[i].calls != tools[j].calls {
			return tools[i].calls > tools[j].calls
		}
		return tools[i].name < tools[j].name
	})
	var parts []string
	for _, t := range tools {
		p := inline(t.name)
		if t.calls > 1 {
			p += fmt.Sprintf(" ×%d", t.calls)
		}
		parts = append(parts, p)
	}
	s := fmt.Sprintf("%d", f.ToolCalls)
	if f.Failed > 0 {
		s += fmt.Sprintf(" (%d failed)", f.Failed)
	}
	return s + ": " + strings.Join(parts, ", ")
}

// StepSummary is the markdown appended to $GITHUB_STEP_SUMMARY for the
// last run: outcome, a table of duration, turns, tokens, cost and tool
// calls, and the final answer (answer is what was shown: the --until
// marker already stripped).
func StepSummary(f *RunFacts, s Summary, answer, until string) string {
	var b strings.Builder
	who := "Agent"
	if f.Agent != "" {
		who = inline(f.Agent)
	}
	if f.Model != "" {
		who += " (" + codeSpan(f.Model) + ")"
	}
	run := ""
	if f.Runs > 1 {
		run = fmt.Sprintf(", run %d", f.Runs)
	}
	switch {
	case s.Interrupted:
		fmt.Fprintf(&b, "### ⊘ %s interrupted%s\n", who, run)
	case s.Outcome == streaming.Success:
		fmt.Fprintf(&b, "### ✓ %s succeeded%s\n", who, run)
	case s.Outcome == streaming.Failure:
		fmt.Fprintf(&b, "### ✗ %s failed%s\n", who, run)
	default:
		fmt.Fprintf(&b, "### … %s did not finish%s\n", who, run)
	}
	if !s.Interrupted && s.Outcome != streaming.Success && s.Reason != "" {
		fmt.Fprintf(&b, "\n%s\n", inline(oneLine(s.Reason)))
	}
	if s.UntilMissing {
		fmt.Fprintf(&b, "\n**The final answer lacks the completion marker** %s\n", codeSpan(until))
	}
	dur, turns, tokens, cost := "–", "–", "–", "–"
	if f.Result.DurationMS > 0 {
		dur = Duration(f.Result.DurationMS)
	} else if !f.First.IsZero() && f.Last.After(f.First) {
		dur = Duration(f.Last.Sub(f.First).Milliseconds())
	}
	if f.Result.Turns > 0 {
		turns = fmt.Sprintf("%d", f.Result.Turns)
	}
	if u := f.usage(); u != nil {
		if u.Total() > 0 {
			in := Tokens(u.InputTokens)
			if c := u.CacheReadTokens + u.CacheWriteTokens; c > 0 {
				in += " + " + Tokens(c) + " cached"
			}
			tokens = in + " in, " + Tokens(u.OutputTokens) + " out"
		}
		if u.HasCost {
			cost = Cost(u.CostUSD)
		}
	}
	b.WriteString("\n| Duration | Turns | Tokens | Cost | Tool calls |\n|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", dur, turns, tokens, cost, f.ToolList())
	if strings.TrimSpace(answer) != "" {
		b.WriteString("\n#### Final answer\n\n")
		b.WriteString(MarkdownText(answer))
	}
	b.WriteString("\n")
	return b.String()
}

// MarkdownText is an assistant text made safe to embed in a markdown
// document, as the transcript writes it: raw HTML and mentions defused
// outside code, a fence left open closed, control characters visible.
func MarkdownText(s string) string {
	var b strings.Builder
	m := &Markdown{w: bufio.NewWriter(&b), cfg: Config{Thinking: ThinkingSummary}, heading: true, last: elemText}
	m.inBlock, m.lineNo = true, 1
	m.cur.kind = streaming.KindTextDelta
	m.role = streaming.RoleAssistant
	m.addText(strings.TrimRight(s, "\n"))
	m.endBlock()
	_ = m.w.Flush()
	return b.String()
}
