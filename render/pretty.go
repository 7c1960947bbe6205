package render

import (
	"io"
	"strings"
	"sync"
	"time"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/palette"
	"github.com/agentfmt/agentfmt/streaming"
)

func init() {
	Register("pretty", func(w io.Writer, cfg Config) Renderer { return newPretty(w, cfg) })
}

// prettyRenderer is the live terminal renderer. Finished output goes to
// the scrollback once and is never rewritten; the live region at the bottom
// (running tool calls, the thinking line, the partial last line of text, a
// status line) is redrawn in place at most about 30 times a second.
//
// Handle only records the event and marks the region dirty; frames are
// drawn by a timer (renderenv.Env.Tick in tests, where each tick received during
// Handle or Flush draws one frame), by Flush when the input is idle, and
// at Finish. Every write goes through one mutex.
type prettyRenderer struct {
	mu  sync.Mutex
	cfg Config
	p   palette.Palette
	scr screen

	height int

	items   []item          // in order; the head is the oldest not in the scrollback
	opened  []*toolItem     // running calls whose header is committed
	st      streaming.State // the session's: its open tool calls, each with its item (Mark)
	running int             // calls running

	cur     *textItem  // the open text block
	curTh   *thinkItem // the open thinking block (summary mode)
	curID   blockID
	inBlock bool // a block is open (thinking not shown is open with neither)

	run      prettyRun
	closing  item      // the run's closing line, while it is the last item queued
	turn     turnEnd   // whether the turn is over, though no result says so
	evParent string    // the parent of the event being handled (lines take its label)
	subW     int       // the widest subagent label so far
	printed  bool      // anything queued yet
	now      time.Time // the time of the frame being drawn

	clock clock

	commitBuf, liveBuf []row

	// Lines that came before the session header (hooks), shown after it.
	early      []item
	sawSession bool
	unsettled  []*textItem // text items that still take text
	lhead      int         // items before it hold nothing back (crowd)
	since      int         // bytes of text and output since the last frame
	plans      planState

	finished bool
	err      error
	frames   int // frames drawn

	// host is the view of several streams this renderer is one lane of
	// (lanes_pretty.go): it has no terminal of its own; the view lays out
	// every lane in its frames, and its lock guards the lane.
	host *prettyView
}

// sinceMax is how much text and output may arrive between two frames.
const sinceMax = 512 << 10

// newPretty returns a live renderer writing to w.
func newPretty(w io.Writer, cfg Config) *prettyRenderer {
	r := &prettyRenderer{cfg: cfg, p: cfg.palette}
	if r.p.Dim == nil {
		r.p = palette.New(false)
	}
	if r.cfg.env.Now == nil {
		r.cfg.env.Now = time.Now
	}
	if r.cfg.ToolLines <= 0 {
		r.cfg.ToolLines = 6
	}
	width := cfg.Width
	if width <= 0 {
		width = 100
	}
	r.scr = screen{out: w, width: width, noReflow: cfg.NoReflow, hook: cfg.drawHook}
	r.height = cfg.Height
	r.clock.init(&r.mu, r.cfg.Resize, r.due)
	return r
}

// Stats reports how many frames were drawn, how many of them wrote to the
// terminal and how many bytes were written (benchmarks and tests).
func (r *prettyRenderer) Stats() (frames, writes int, bytes int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frames, r.scr.frames, r.scr.written
}

// Handle records one event. It never writes, except that with renderenv.Env.Tick
// a pending tick draws a frame.
func (r *prettyRenderer) Handle(ev *streaming.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil || r.finished {
		return r.err
	}
	if n := len(ev.Text); n > sinceMax && r.cfg.env.Tick == nil && (ev.Kind == streaming.KindTextDelta || ev.Kind == streaming.KindThinkingDelta) {
		// One delta of megabytes (an answer sent whole, not streamed) is
		// taken a piece at a time, each piece drawn before the next: its
		// text, its rows and the bytes written for them are never all
		// held at once (docs/performance.md: the peak without it).
		piece := *ev
		for off := 0; off < n && r.err == nil; off += sinceMax {
			piece.Text = ev.Text[off:min(off+sinceMax, n)]
			r.handleLocked(&piece)
		}
		return r.err
	}
	return r.handleLocked(ev)
}

// handleLocked is Handle, r.mu held.
func (r *prettyRenderer) handleLocked(ev *streaming.Event) error {
	if r.host == nil {
		r.turn.see(ev, r.cfg.env.Now())
	}
	if ev.Kind == streaming.KindTextDelta || ev.Kind == streaming.KindThinkingDelta {
		// The hot path: one more piece of the open block.
		if r.inBlock && r.curID.msg == ev.Message && r.curID.index == ev.Block && r.curID.kind == ev.Kind {
			switch {
			case r.cur != nil:
				r.cur.pend = append(r.cur.pend, ev.Text...)
				r.cur.recv += len(ev.Text)
				if n := strings.Count(ev.Text, "\n"); n > 0 {
					r.cur.nl += n
					r.crowd()
				}
			case r.curTh != nil:
				r.curTh.add(ev.Text)
			}
			if r.since += len(ev.Text); r.since > sinceMax && r.cfg.env.Tick == nil {
				r.frame(false)
			}
			r.touch()
			return r.err
		}
		r.startBlock(ev)
	} else {
		r.handle(ev)
		r.crowd()
	}
	// Input read faster than frames are drawn (a replay) piles up in the
	// sequence: past half a megabyte, draw now, so memory stays bounded.
	r.since += len(ev.Text) + len(ev.Output)
	if r.since > sinceMax && r.cfg.env.Tick == nil {
		r.frame(false)
	}
	r.touch()
	return r.err
}

// touch marks the region dirty and lets the clock know.
func (r *prettyRenderer) touch() {
	if r.host != nil {
		r.clock.dirty = true
		r.host.touched()
		return
	}
	if !r.dirty() {
		r.clock.dirty = true
		r.kick()
	}
	if r.cfg.env.Tick != nil {
		r.pollTicks()
	}
}

func (r *prettyRenderer) dirty() bool { return r.clock.dirty }

// Flush draws the region now if it changed and the frame rate allows; the
// command calls it when the input is idle.
func (r *prettyRenderer) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished || r.err != nil {
		return r.err
	}
	if r.cfg.env.Tick != nil {
		r.pollTicks()
		return r.err
	}
	if r.dirty() && time.Since(r.clock.last) >= frameInterval {
		r.frame(false)
	}
	return r.err
}

// eachRunning calls f with each call still running: in the sequence, or
// with its header committed.
func (r *prettyRenderer) eachRunning(f func(t *toolItem)) {
	for _, it := range r.items {
		switch t := it.(type) {
		case *toolItem:
			if !t.ended {
				f(t)
			}
		case *headerItem:
			if !t.t.ended && !t.t.opened {
				f(t.t)
			}
		}
	}
	for _, t := range r.opened {
		if !t.ended {
			f(t)
		}
	}
}

// Finish finalises the live region as it stands (a partial line, running
// calls marked interrupted or incomplete), writes the closing line of a
// run that did not finish, shows the cursor again and stops the clock.
func (r *prettyRenderer) Finish(s Summary) error {
	r.mu.Lock()
	if r.finished {
		r.mu.Unlock()
		return r.err
	}
	r.endBlock()
	if len(r.early) > 0 {
		r.flushEarly()
	}
	var running []*toolItem
	r.eachRunning(func(t *toolItem) { running = append(running, t) })
	for _, t := range running {
		r.endTool(t, &streaming.Event{Status: streaming.ToolIncomplete})
		t.interrupted, t.running = s.Interrupted, s.Stopped
	}
	p := r.p
	// The tokens and cost of a run that has no result line to say them.
	var facts []string
	if !runOf(r.st, nil).Done {
		facts = eventtext.SplitFacts(eventtext.AppendFacts(nil, 0, 0, r.run.usage))
	}
	if r.run.active {
		if d := r.cfg.env.Now().Sub(r.run.start); d >= time.Second {
			facts = append([]string{eventtext.Duration(d.Milliseconds())}, facts...)
		}
	}
	tail := ""
	if len(facts) > 0 {
		tail = p.Dim(" · " + strings.Join(facts, " · "))
	}
	switch {
	case s.Stopped:
	case s.Interrupted:
		r.lines(0, "── "+p.Yellow("⊘ interrupted")+tail)
	case s.Outcome == streaming.Failure && s.NoResult:
		r.lines(0, "── "+p.Red("✗ failed: "+r.clean(eventtext.OneLine(s.Reason)))+tail)
	case s.Outcome == streaming.Incomplete:
		r.lines(0, "── "+p.Yellow("… incomplete: "+r.clean(eventtext.OneLine(s.Reason)))+tail)
	}
	if s.UntilMissing {
		r.lines(0, p.Yellow("── the final answer lacks the completion marker "+r.clean(r.cfg.Until)))
	}
	r.run.active = false
	if r.err == nil {
		r.frame(true)
	}
	r.scr.showCursor()
	err := r.scr.flush()
	if r.err == nil {
		r.err = err
	}
	r.finished = true
	stop := r.clock.stopClock()
	r.mu.Unlock()
	stop()
	return r.err
}

// prettyRun is what the live region shows of the run: whether it is
// under way, since when on the wall clock, its usage so far (a copy of
// the session's, taken while an event is handled: a frame never reads the
// session) and its latest warning.
type prettyRun struct {
	active bool
	start  time.Time
	usage  *streaming.Usage // nil: none yet; else &held
	held   streaming.Usage
	status string // the latest warning (retry, rate limit)
}

// noteUsage copies the usage of the session's run.
func (p *prettyRun) noteUsage(run *streaming.Run) {
	if u := run.Usage; u != nil {
		p.held, p.usage = *u, &p.held
	} else {
		p.usage = nil
	}
}
