package render

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/streaming"
)

// clean makes agent text safe for the terminal.
func (r *prettyRenderer) clean(s string) string { return sanitize.String(s, sanitize.Options{}) }

// UseState gives the renderer the session's state (streaming.StateUser):
// each open call keeps its item there (Call.Mark). It is read while an
// event is handled, never while a frame is drawn.
func (r *prettyRenderer) UseState(st streaming.State) { r.st = st }

// depthOf is the nesting depth of work started by the call parent.
func (r *prettyRenderer) depthOf(parent string) int { return callDepth(r.st, parent) }

// call is the session's open call id, or nil.
func (r *prettyRenderer) call(id string) *streaming.Call {
	if r.st == nil {
		return nil
	}
	return r.st.Call(id)
}

// item is the item of the session's open call id, or nil.
func (r *prettyRenderer) item(id string) *toolItem {
	if c := r.call(id); c != nil {
		t, _ := c.Mark.(*toolItem)
		return t
	}
	return nil
}

// child notes work under a tool call: the call's header is committed so
// that the work can go to the scrollback below it.
//
// A call still in the sequence (not yet committed) is split there and
// then: a header item takes its place, so its work follows it whatever
// the timing of frames, and its done line goes after the work when it
// ends. A replay and a live feed show the same order.
func (r *prettyRenderer) child(parent string) {
	if parent == "" {
		return
	}
	t := r.item(parent)
	if t == nil || t.opened || t.split {
		return
	}
	for i := len(r.items) - 1; i >= 0; i-- {
		if r.items[i] == item(t) {
			r.split(i, t)
			return
		}
	}
}

// push appends an item to the sequence.
func (r *prettyRenderer) push(it item) {
	if !r.sawSession && len(r.early) > 0 {
		r.flushEarly()
	}
	r.items = append(r.items, it)
	r.printed = true
	if t, ok := it.(*textItem); ok {
		r.unsettled = append(r.unsettled, t)
	}
}

// flushEarly queues the lines held back for the session header.
func (r *prettyRenderer) flushEarly() {
	early := r.early
	r.early = nil
	r.sawSession = true // what follows is in order
	for _, it := range early {
		r.push(it)
	}
}

// lines queues finished lines at a depth.
func (r *prettyRenderer) lines(depth int, ss ...string) {
	li := &linesItem{}
	if depth > 0 {
		li.sub = r.subOf(r.evParent)
	}
	for _, s := range ss {
		// Kept past Handle (laid out in a later frame): a copy, as the
		// event's strings may be lent.
		li.lines = append(li.lines, logLine{depth: depth, s: strings.Clone(s)})
	}
	r.push(li)
}

// activate starts the status line's clock when a run shows activity.
func (r *prettyRenderer) activate() {
	if !r.run.active {
		r.run.active = true
		r.run.start = r.cfg.env.Now()
	}
}

// startBlock opens a text or thinking block.
func (r *prettyRenderer) startBlock(ev *streaming.Event) {
	r.endBlock()
	r.activate()
	r.run.status = ""
	r.inBlock = true
	msg := r.curID.msg
	if msg != ev.Message {
		msg = strings.Clone(ev.Message) // kept past Handle
	}
	r.curID = blockID{msg: msg, kind: ev.Kind, index: ev.Block}
	r.child(ev.Parent)
	d := r.depthOf(ev.Parent)
	if ev.Kind == streaming.KindThinkingDelta {
		switch r.cfg.Thinking {
		case ThinkingNone:
			return
		case ThinkingFull:
		default:
			r.curTh = &thinkItem{depth: d, sub: r.subOf(ev.Parent), start: r.cfg.env.Now()}
			r.curTh.add(ev.Text)
			r.push(r.curTh)
			return
		}
	}
	t := &textItem{depth: d, sub: r.subOf(ev.Parent), user: ev.Role == streaming.RoleUser, think: ev.Kind == streaming.KindThinkingDelta}
	if t.user {
		screen := r.height
		if screen <= 0 {
			screen = eventtext.PromptScreen
		}
		f := newPromptFold(screen)
		t.fold = &f
	}
	t.pend = append(t.pend, ev.Text...)
	t.recv, t.nl = len(ev.Text), strings.Count(ev.Text, "\n")
	r.cur = t
	r.push(t)
}

// endBlock closes the open block; its last line is final. It is called
// when the session ends the block (block.stop) and when something else is
// shown first (more of the block, should it come, is a new item below).
func (r *prettyRenderer) endBlock() {
	if !r.inBlock {
		return
	}
	r.inBlock = false
	if r.cur != nil {
		r.cur.closed = true
		r.cur = nil
	}
	if r.curTh != nil {
		r.curTh.closed = true
		r.curTh.end = r.cfg.env.Now()
		r.curTh = nil
	}
}

// handle records every event but text and thinking deltas, as plain
// words them.
func (r *prettyRenderer) handle(ev *streaming.Event) {
	r.run.noteUsage(runOf(r.st, ev))
	r.evParent = ev.Parent // (for lines)
	switch ev.Kind {
	case streaming.KindMessageStart, streaming.KindMessageStop, streaming.KindTextSentence:
		return
	case streaming.KindBlockStop:
		// The session says the block is final: its last line is.
		if r.inBlock && r.curID == (blockID{msg: ev.Message, kind: ev.BlockKind, index: ev.Block}) {
			r.endBlock()
		}
		return
	case streaming.KindToolInputDelta:
		return
	case streaming.KindToolOutputDelta:
		if t := r.item(ev.ID); t != nil {
			m := t.more()
			m.outTail = append(m.outTail, ev.Text...)
			if len(m.outTail) > 4096 {
				m.outTail = m.outTail[:copy(m.outTail, m.outTail[len(m.outTail)-1024:])]
			}
		}
		return
	case streaming.KindUsage:
		return
	case streaming.KindStatus:
		r.activate()
		if ev.Level == streaming.LevelWarning {
			// Retries and rate limits also stay on the status line until
			// the agent gets going again.
			r.run.status = eventtext.OneLine(r.clean(ev.Text))
		}
	}
	r.endBlock()
	d := r.depthOf(ev.Parent)
	p := r.p
	switch ev.Kind {
	case streaming.KindSessionStart:
		var parts []string
		if ev.SessionID != "" {
			parts = append(parts, "session "+r.clean(ev.SessionID))
		}
		for _, s := range []string{ev.Agent, ev.Title, ev.Model, ev.CWD} {
			if s != "" {
				parts = append(parts, r.clean(s))
			}
		}
		early := r.early
		r.early = nil
		r.sawSession = true
		if r.printed {
			r.lines(0, "")
		}
		// The header wraps under its text (a long cwd breaks after a
		// slash, never inside a name).
		r.push(&linesItem{lines: []logLine{{s: p.Dim("● " + strings.Join(parts, " · ")), hang: 2}}})
		for _, it := range early {
			r.push(it)
		}
		r.run.active = false
		r.activate()
	case streaming.KindTextRevision, streaming.KindThinkingRevision:
		if ev.Kind == streaming.KindThinkingRevision && r.cfg.Thinking != ThinkingFull {
			return
		}
		out := []string{p.Yellow("↻ revised:")}
		for _, l := range splitLines(r.clean(ev.Text)) {
			out = append(out, expandTabs(l))
		}
		r.lines(d, out...)
	case streaming.KindToolStart:
		r.activate()
		r.run.status = ""
		r.child(ev.Parent)
		// What the call shows later is the session's (its strings stay
		// as they are), else copied: the event's are valid during Handle
		// only.
		t := &toolItem{depth: d, sub: r.subOf(ev.Parent), start: r.cfg.env.Now()}
		if c := r.call(ev.ID); c != nil {
			t.call = c
			c.Mark = t
		} else {
			t.call = &streaming.Call{ID: strings.Clone(ev.ID), Name: strings.Clone(ev.Name), Title: strings.Clone(ev.Title),
				Subject: strings.Clone(ev.Subject), Edits: streaming.CloneEdits(ev.Edits)}
		}
		r.running++
		r.push(t)
	case streaming.KindToolEnd:
		r.run.status = ""
		r.child(ev.Parent)
		t := r.item(ev.ID)
		if t == nil {
			t = &toolItem{call: &streaming.Call{ID: strings.Clone(ev.ID), Name: strings.Clone(ev.Name)}, depth: d, sub: r.subOf(ev.Parent), start: r.cfg.env.Now()}
			r.running++
			r.push(t)
		}
		r.endTool(t, ev)
	case streaming.KindPlan:
		r.plan(ev, d)
	case streaming.KindPermissionRequest:
		var opts []string
		for _, o := range ev.Options {
			opts = append(opts, r.clean(o.Name))
		}
		line := p.Yellow("? permission") + " " + r.clean(ev.Name)
		if ev.Title != "" {
			line += " " + r.clean(eventtext.OneLine(ev.Title))
		}
		if len(opts) > 0 {
			line += p.Dim(" [" + strings.Join(opts, " / ") + "]")
		}
		r.lines(d, line)
	case streaming.KindPermissionResponse:
		r.lines(d, p.Dim("  → "+r.clean(ev.Choice)))
	case streaming.KindModeChange:
		r.lines(d, p.Dim("· mode "+r.clean(ev.From)+" → "+r.clean(ev.To)))
	case streaming.KindStatus:
		line := p.Dim("· " + r.clean(eventtext.OneLine(ev.Text)))
		if ev.Level == streaming.LevelWarning {
			line = p.Yellow("⚠ " + r.clean(eventtext.OneLine(ev.Text)))
		}
		if !r.sawSession && !r.printed {
			// Hooks run before the session starts: their lines go below
			// its header.
			r.early = append(r.early, &linesItem{lines: []logLine{{depth: d, s: line}}})
			return
		}
		r.lines(d, line)
	case streaming.KindError:
		msg := splitLines(r.clean(ev.Text))
		if len(msg) == 0 {
			msg = []string{""}
		}
		if ev.Fatal || ev.Level != streaming.LevelWarning {
			msg[0] = p.Red("✗ error: ") + msg[0]
		} else {
			msg[0] = p.Yellow("⚠ ") + msg[0]
		}
		r.lines(d, msg...)
	case streaming.KindResult:
		r.resultLine(ev)
		r.closing = r.items[len(r.items)-1]
		return
	case streaming.KindRaw, streaming.KindStderr:
		r.lines(0, expandTabs(r.clean(strings.TrimRight(ev.Text, "\r\n"))))
	case streaming.KindUnknown:
		if ev.Type != "" {
			r.lines(d, p.Dim("· unknown event "+r.clean(eventtext.OneLine(ev.Type))))
		} else {
			// No type to name: show how the line starts.
			r.lines(d, p.Dim("· unknown line "+eventtext.TruncateRunes(r.clean(strings.Join(strings.Fields(ev.Text), " ")), 60)))
		}
	case streaming.KindNotice:
		r.lines(0, p.Yellow("agentfmt: "+r.clean(ev.Text)))
	}
	r.keepClosingLast(ev.Kind == streaming.KindError || ev.Kind == streaming.KindNotice)
}

// keepClosingLast moves the item just queued above the run's closing
// line while that waits in the sequence (an error after the result:
// codex exec's own word after a failed turn), so that the closing line
// stays last; anything else queued lets it be.
func (r *prettyRenderer) keepClosingLast(above bool) {
	if r.closing == nil {
		return
	}
	n := len(r.items)
	if above && n >= 2 && r.items[n-2] == r.closing {
		r.items[n-2], r.items[n-1] = r.items[n-1], r.closing
		return
	}
	r.closing = nil
}

// endTool records how a call ended. A call still in the sequence turns
// into its done line in place; one whose header was committed moves to
// the end of the sequence.
func (r *prettyRenderer) endTool(t *toolItem, ev *streaming.Event) {
	if !t.ended {
		r.running--
	}
	t.ended = true
	// The start's edits (the session's copy: its call lets them go once
	// this returns), unless the end names its own.
	t.toolEnd = &toolEnd{edits: t.call.Edits}
	t.status = ev.Status
	if t.status == "" {
		t.status = streaming.ToolOK
	}
	t.exit = ev.ExitCode
	t.durMS = ev.DurationMS
	t.output = strings.Clone(eventtext.ToolOutput(ev)) // kept past Handle: the event's may be lent
	if repeatsAnswer(r.call(ev.ID)) {
		t.output = "" // its subagent's answer, shown above as text
	}
	t.endAt = r.cfg.env.Now()
	if c := t.call; ev.Title != "" && ev.Title != c.Title || ev.Subject != "" && ev.Subject != c.Subject || ev.Name != "" && ev.Name != c.Name {
		// The end says more than the start: a copy (the session's call
		// stays as it was; the event's strings are lent).
		n := &streaming.Call{ID: c.ID, Name: c.Name, Title: c.Title, Subject: c.Subject}
		if ev.Title != "" && ev.Title != c.Title {
			n.Title = strings.Clone(ev.Title)
		}
		if ev.Subject != "" && ev.Subject != c.Subject {
			n.Subject = strings.Clone(ev.Subject)
		}
		if ev.Name != "" && ev.Name != c.Name {
			n.Name = strings.Clone(ev.Name)
		}
		t.call = n
	}
	if len(ev.Edits) > 0 {
		t.edits = streaming.CloneEdits(ev.Edits)
	}
	if t.opened || t.split {
		// Its header is (or will be) above its work: the done line goes
		// after it. r.opened drops it at the next frame.
		r.push(t)
	}
}

// resultLine is plain's closing line of a run, written when the result
// arrives.
func (r *prettyRenderer) resultLine(ev *streaming.Event) {
	p := r.p
	facts := resultFacts(runOf(r.st, ev))
	var head string
	if ev.OK {
		head = p.Green("✓ done")
	} else {
		head = p.Red("✗ failed")
		if ev.Reason != "" {
			head += p.Red(": " + r.clean(eventtext.OneLine(ev.Reason)))
		}
	}
	line := "── " + head
	if len(facts) > 0 {
		line += p.Dim(" · " + strings.Join(facts, " · "))
	}
	r.lines(0, line)
	r.run.active = false
	r.run.status = ""
}
