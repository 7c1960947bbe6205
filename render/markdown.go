package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/streaming"
)

func init() {
	Register("markdown", func(w io.Writer, cfg Config) Renderer { return newMarkdown(w, cfg) })
}

// markdownRenderer writes a transcript fit for a pull-request comment or a job
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
type markdownRenderer struct {
	w   *bufio.Writer
	cfg Config

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
	fold    promptFold // a prompt's lines past a screenful are folded

	st streaming.State // the session's: its open tool calls and the run's figures
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

// newMarkdown returns a markdown renderer writing to w.
func newMarkdown(w io.Writer, cfg Config) *markdownRenderer {
	if cfg.ToolLines <= 0 {
		cfg.ToolLines = 6
	}
	if cfg.Thinking == "" {
		cfg.Thinking = ThinkingSummary
	}
	if cfg.Tools == "" {
		cfg.Tools = ToolsPreview
	}
	return &markdownRenderer{w: bufio.NewWriterSize(w, outBuffer), cfg: cfg, fold: newPromptFold(eventtext.PromptScreen)}
}

// Flush writes what is buffered.
func (m *markdownRenderer) Flush() error { return m.w.Flush() }

// begin starts an element of kind k: a blank line separates it from the
// previous element unless both are items of one list or lines of one
// quote.
func (m *markdownRenderer) begin(k elem) {
	if m.last != elemNone && !(k == m.last && (k == elemList || k == elemQuote)) {
		m.w.WriteByte('\n')
	}
	m.last = k
}

func (m *markdownRenderer) ensureHeading(ev *streaming.Event) {
	if m.heading {
		return
	}
	m.heading = true
	m.begin(elemHeading)
	title := fmt.Sprintf("## Run %d", max(runOf(m.st, nil).Runs, 1))
	if ev != nil && ev.Kind == streaming.KindSessionStart {
		for _, p := range [...]string{ev.Agent, ev.Title} {
			if p != "" {
				title += " · " + inline(p)
			}
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
func (m *markdownRenderer) Handle(ev *streaming.Event) error {
	switch ev.Kind {
	case streaming.KindTextDelta, streaming.KindThinkingDelta:
		m.text(ev)
		return m.err()
	case streaming.KindToolInputDelta, streaming.KindToolOutputDelta, streaming.KindMessageStart, streaming.KindMessageStop,
		streaming.KindUsage, streaming.KindTextSentence:
		return nil
	case streaming.KindBlockStop:
		// The session says the block is final: its last line, a fence it
		// left open, its thinking summary are written now.
		if m.inBlock && m.cur == (blockID{msg: ev.Message, kind: ev.BlockKind, index: ev.Block}) {
			m.endBlock()
		}
		return m.err()
	case streaming.KindToolStart:
		// Written when it ends: nothing to interrupt the text for.
		return nil
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
	case streaming.KindToolEnd:
		edits := ev.Edits
		var c *streaming.Call
		if m.st != nil {
			c = m.st.Call(ev.ID)
		}
		if c != nil && len(edits) == 0 {
			edits = c.Edits // the start's
		}
		m.ensureHeading(nil)
		if repeatsAnswer(c) {
			// Its output is its subagent's answer, shown above as text.
			e := *ev
			e.Output = ""
			ev = &e
		}
		m.tool(ev, edits)
	case streaming.KindPlan:
		m.ensureHeading(nil)
		m.begin(elemLine)
		m.w.WriteString("**Plan**\n\n")
		for _, e := range ev.Entries {
			box := "- [ ] "
			switch eventtext.PlanMark(e.Status) {
			case "☑":
				box = "- [x] "
			case "◐":
				box = "- [ ] ◐ "
			case "☒":
				box = "- [ ] ~~"
			}
			text := inline(eventtext.OneLine(e.Text))
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
			line += " " + codeSpan(eventtext.OneLine(ev.Title))
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
			m.quote("⚠️ " + inline(eventtext.OneLine(ev.Text)))
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
		m.w.WriteString(m.outcomeLine(runOf(m.st, ev), ev.OK, false, ev.Reason) + "\n")
	case streaming.KindRaw, streaming.KindStderr:
		m.ensureHeading(nil)
		m.quote(codeSpan(ev.Text))
	case streaming.KindNotice:
		m.ensureHeading(nil)
		m.quote("*agentfmt: " + inline(eventtext.OneLine(ev.Text)) + "*")
	}
	return m.err()
}

func (m *markdownRenderer) err() error {
	_, err := m.w.Write(nil)
	return err
}

func (m *markdownRenderer) quote(line string) {
	m.begin(elemQuote)
	m.w.WriteString("> " + line + "\n")
}

// quoteText quotes a multi-line text, the first line after a lead.
func (m *markdownRenderer) quoteText(lead, text string) {
	lines := splitLines(clean(text))
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

// UseState gives the renderer the session's state (streaming.StateUser):
// the calls still open when an interrupted run finishes are written from
// it.
func (m *markdownRenderer) UseState(st streaming.State) { m.st = st }

// outcomeLine is the bold result line of a run with its facts.
func (m *markdownRenderer) outcomeLine(run *streaming.Run, ok, incomplete bool, reason string) string {
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
		head += ": " + inline(eventtext.OneLine(reason))
	}
	origin, models := eventtext.OriginLabel(run.Origin), eventtext.ModelsLabel(run.Models)
	if origin != "" {
		head += " · " + inline(origin)
	}
	if facts := eventtext.Figures(run); len(facts) > 0 {
		head += " · " + strings.Join(facts, " · ")
	}
	if models != "" {
		head += " · " + inline(models)
	}
	return head
}

// Finish writes the end of a run that did not finish, and flushes.
func (m *markdownRenderer) Finish(s Summary) error {
	m.endBlock()
	if m.st != nil {
		// An interrupted run: the session did not end its calls.
		for _, c := range m.st.Calls() {
			ev := streaming.Event{Kind: streaming.KindToolEnd, ID: c.ID, Name: c.Name, Parent: c.Parent, Input: c.Input,
				Title: c.Title, Subject: c.Subject, Status: streaming.ToolIncomplete, Output: c.Output()}
			m.tool(&ev, nil)
		}
	}
	switch {
	case s.Stopped:
	case s.Interrupted:
		m.ensureHeading(nil)
		m.begin(elemLine)
		m.w.WriteString("**⊘ Interrupted**\n")
	case s.Outcome == streaming.Incomplete, s.Outcome == streaming.Failure && s.NoResult:
		m.ensureHeading(nil)
		m.begin(elemLine)
		m.w.WriteString(m.outcomeLine(runOf(m.st, nil), false, s.Outcome == streaming.Incomplete, s.Reason) + "\n")
	}
	if s.UntilMissing {
		m.begin(elemLine)
		m.w.WriteString("**The final answer lacks the completion marker** " + codeSpan(m.cfg.Until) + "\n")
	}
	return m.w.Flush()
}
