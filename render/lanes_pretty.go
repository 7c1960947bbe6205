package render

import (
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/palette"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/streaming"
)

// prettyView is the terminal view of several streams. Each stream is
// rendered by a Pretty of its own — its markdown, wrapping, tool lines,
// previews, subagent nesting and sequential completion are the
// single-stream renderer's — which has no terminal: the view owns the
// screen and lays out every lane in its frames (Pretty.layout).
//
// What a lane finishes goes to the scrollback, after a separator naming
// its stream whenever the scrollback last had another stream's rows. The
// live region holds a heading per stream, with the stream's live block
// under it:
//
//	⠹ claude·1a2b · app · waiting on Bash · 42s · 12.3k tokens
//	▸ Bash go test ./...
//	  │ ok  	example/app	0.4s
//	✓ codex·019f · app · done · 1m03s · 4 turns · 30.1k in, 1.2k out
//
// A stream whose run ended folds to its heading, which is its summary
// line. The region stays within about half the screen's rows however
// many streams there are: blocks are cut from the top, and when rows run
// short the streams that received nothing for longest fold first; past
// one heading per row, the most recent streams keep theirs and a line
// counts the others. At the end the headings go to the scrollback as the
// last lines.
//
// Locking: every lane goes through the view's lock, which guards the
// lanes' renderers too (their own locks are never contended), and the
// view's clock draws frames as Pretty's does.
type prettyView struct {
	mu     sync.Mutex
	cfg    Config
	p      palette.Palette
	scr    screen
	height int

	lanes    []*prettyLane
	lastLane *prettyLane // whose rows the scrollback ends with
	seq      int         // events handled: which lane was active last

	now   time.Time // the time of the frame being drawn
	dirty bool
	last  time.Time // wall time of the last frame
	clk   frameTimer

	commitBuf, liveBuf []row
	finished           bool
	err                error
	frames             int
}

// laneHeight is the screen height a lane's own renderer lays out for: an
// open block longer than a few rows goes to the scrollback in pieces.
const laneHeight = 12

func newPrettyView(w io.Writer, cfg Config) *prettyView {
	v := &prettyView{cfg: cfg, p: cfg.palette, height: cfg.Height}
	if v.cfg.env.Now == nil {
		v.cfg.env.Now = time.Now
	}
	v.scr = screen{out: w, width: max(cfg.Width, 10), noReflow: cfg.NoReflow, hook: cfg.drawHook}
	v.clk.init(&v.mu, v.cfg.Resize, v.due)
	return v
}

// prettyLane is one stream of a prettyView.
type prettyLane struct {
	headless
	v     *prettyView
	r     *prettyRenderer
	info  Lane
	style func(string) string
	seq   int   // v.seq when it last received an event
	live  []row // its live rows as last laid out
	// result is the last run's result, until another run starts; end
	// is the stream's end (Finish).
	result *laneResult
	end    *Summary
	// described: a separator said what the stream is; sep is the
	// separator since.
	described bool
	sep       row
	// head is the heading as last made, for key: it changes only with an
	// event of the stream, the width, a second of its clock or a turn of
	// its spinner.
	head    row
	headKey headKey
	gen     int // events and the end seen
	// turn tells when the agent's turn is over though its run goes on.
	turn turnEnd
	// stopped is the heading as it stood when following stopped (the
	// run goes on: its state is left as it was).
	stopped *row
}

type headKey struct {
	gen, width int
	sec, spin  int64
	waiting    bool
}

type laneResult struct {
	ok     bool
	reason string
	facts  []string
}

// cleanTag makes a stream's tag one line of visible text.
func cleanTag(tag string) string {
	tag = sanitize.String(strings.Join(strings.Fields(tag), " "), sanitize.Options{})
	if tag == "" {
		tag = "?"
	}
	return tag
}

func (v *prettyView) Lane(l Lane) Renderer {
	v.mu.Lock()
	defer v.mu.Unlock()
	l.Tag = cleanTag(l.Tag)
	for _, f := range []*string{&l.Agent, &l.Project, &l.Session} {
		if *f != "" {
			*f = cleanTag(*f) // (a session's directory and id come from its file)
		}
	}
	cfg := v.cfg
	cfg.Height, cfg.env.Tick, cfg.TermSize, cfg.Resize = laneHeight, nil, nil, nil
	ln := &prettyLane{v: v, info: l, style: tagStyle(v.p, l.Tag)}
	ln.r = newPretty(io.Discard, cfg)
	ln.r.host = v
	ln.r.scr.width = v.scr.width
	v.lanes = append(v.lanes, ln)
	v.dirty = true
	v.kick() // (its heading is drawn, and a frame is due for what comes)
	return ln
}

func (l *prettyLane) Handle(ev *streaming.Event) error {
	v := l.v
	v.mu.Lock()
	defer v.mu.Unlock()
	v.seq++
	l.seq = v.seq
	l.turn.see(ev, v.cfg.env.Now())
	switch ev.Kind {
	case streaming.KindTextDelta, streaming.KindThinkingDelta, streaming.KindToolInputDelta, streaming.KindToolOutputDelta,
		streaming.KindMessageStart, streaming.KindMessageStop:
		// (the heading says nothing of these, but that the run goes on)
		if !l.r.run.active {
			l.gen++
		}
	default:
		l.gen++
	}
	switch ev.Kind {
	case streaming.KindSessionStart:
		l.result = nil
		if l.info.Agent == "" {
			l.info.Agent = l.r.clean(ev.Agent)
		}
		if l.info.Project == "" && ev.CWD != "" {
			l.info.Project = l.r.clean(baseName(ev.CWD))
		}
		if l.info.Session == "" {
			l.info.Session = l.r.clean(ev.SessionID)
		}
	case streaming.KindResult:
		l.result = &laneResult{ok: ev.OK, reason: l.r.clean(eventtext.OneLine(ev.Reason)), facts: resultFacts(runOf(l.r.st, ev))}
	}
	if err := l.r.Handle(ev); err != nil {
		return err
	}
	return v.err // (the terminal is the view's: its write errors are every lane's)
}

// baseName is the last element of a path, either separator.
func baseName(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

func (l *prettyLane) Flush() error {
	l.v.mu.Lock()
	defer l.v.mu.Unlock()
	return l.v.flushLocked()
}

// Finish ends the stream: its lane's items are finalised and committed,
// and its heading becomes its summary line.
func (l *prettyLane) Finish(s Summary) error {
	l.v.mu.Lock()
	defer l.v.mu.Unlock()
	if s.Stopped && l.r.run.active {
		v := l.v
		v.now = v.cfg.env.Now()
		h := l.makeHeading(v)
		l.stopped = &h
	}
	sum := s
	l.end = &sum
	l.gen++
	l.r.clock.dirty = true
	if err := l.r.Finish(s); err != nil {
		return err
	}
	return l.v.err
}

func (v *prettyView) Flush() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.flushLocked()
}

func (v *prettyView) flushLocked() error {
	if v.finished || v.err != nil {
		return v.err
	}
	if v.cfg.env.Tick != nil {
		v.pollTicks()
		return v.err
	}
	if v.dirty && time.Since(v.last) >= frameInterval {
		v.frame()
	}
	return v.err
}

// Finish draws the last frame and puts every stream's heading (its
// summary line) in the scrollback. Every lane has been finished.
func (v *prettyView) Finish(bool) error {
	v.mu.Lock()
	if v.finished {
		v.mu.Unlock()
		return v.err
	}
	if v.err == nil {
		v.frame()
		var rows []row
		for _, l := range v.lanes {
			rows = append(rows, l.heading(v))
		}
		v.scr.draw(rows, nil)
	}
	v.scr.showCursor()
	if err := v.scr.flush(); v.err == nil {
		v.err = err
	}
	v.finished = true
	stop := v.clk.stopClock()
	v.mu.Unlock()
	stop()
	return v.err
}

// touched is told by a lane that it changed (the view's lock is held).
func (v *prettyView) touched() {
	if !v.dirty {
		v.dirty = true
		v.kick()
	}
	if v.cfg.env.Tick != nil {
		v.pollTicks()
	}
}

// pollTicks draws one frame if renderenv.Env.Tick has delivered (tests).
func (v *prettyView) pollTicks() {
	got := false
	for {
		select {
		case <-v.cfg.env.Tick:
			got = true
			continue
		default:
		}
		break
	}
	if got {
		v.frame()
	}
}

// frame lays out the lanes that changed, commits what they finished and
// draws the live region.
func (v *prettyView) frame() {
	v.now = v.cfg.env.Now()
	v.last = time.Now()
	v.dirty = false
	v.frames++
	v.pollResize()
	commit := v.commitBuf[:0]
	for _, l := range v.lanes {
		r := l.r
		if r.scr.width != v.scr.width {
			r.scr.width = v.scr.width
			r.clock.dirty = true
		}
		if !r.clock.dirty && r.running == 0 && r.curTh == nil {
			continue // nothing new to lay out: its rows stand
		}
		c, live := r.layout()
		if len(c) > 0 {
			if v.lastLane != l {
				commit = append(commit, l.separator(v))
				v.lastLane = l
			}
			commit = append(commit, c...)
		}
		l.live = append(l.live[:0], live...)
		r.commitBuf, r.liveBuf = c[:0], live[:0]
	}
	live := v.arrange(v.liveBuf[:0])
	v.scr.draw(commit, live)
	v.commitBuf, v.liveBuf = commit[:0], live[:0]
	if err := v.scr.flush(); err != nil && v.err == nil {
		v.err = err
	}
}

// pollResize re-reads the terminal size (see Pretty.pollResize).
func (v *prettyView) pollResize() {
	for v.cfg.Resize != nil {
		select {
		case <-v.cfg.Resize:
			continue
		default:
		}
		break
	}
	if v.cfg.TermSize == nil {
		return
	}
	w, h, ok := v.cfg.TermSize()
	if !ok || w <= 0 {
		return
	}
	v.height = h
	v.scr.resize(max(w, 10))
}

// liveLimit is the tallest the region is drawn: half the screen's rows
// (a third, liveFull, with one stream: several streams need the room, at
// the risk of a few rows shown twice when the window is made more than
// twice narrower), and never more than the screen.
func (v *prettyView) liveLimit() int {
	h := v.height
	if h <= 0 {
		h = 20
	}
	rows := max(h-1, 1)
	return max(rows/2, max(rows/shrinkRoom, min(rows, 6)))
}

// arrange lays out the live region: each stream's heading with as much of
// its live block as there is room for.
func (v *prettyView) arrange(dst []row) []row {
	budget := v.liveLimit()
	shown := v.lanes
	hidden := 0
	if len(shown) > budget {
		// The most recently active streams keep their headings.
		byRecent := slices.Clone(v.lanes)
		slices.SortStableFunc(byRecent, func(a, b *prettyLane) int { return b.seq - a.seq })
		keep := byRecent[:max(budget-1, 0)]
		shown = nil
		for _, l := range v.lanes {
			if slices.Contains(keep, l) {
				shown = append(shown, l)
			}
		}
		hidden = len(v.lanes) - len(shown)
	}
	rows := v.share(shown, budget-len(shown)-min(hidden, 1))
	if hidden > 0 {
		running := 0
		for _, l := range v.lanes {
			if l.end == nil && l.r.run.active && !slices.Contains(shown, l) {
				running++
			}
		}
		s := "… " + eventtext.Tokens(int64(hidden)) + " more stream" + eventtext.Plural(hidden)
		if running > 0 {
			s += " (" + eventtext.Tokens(int64(running)) + " running)"
		}
		s = truncCells(s, v.scr.width)
		dst = append(dst, row{s: v.p.Dim(s), w: cells(s)})
	}
	for i, l := range shown {
		dst = append(dst, l.heading(v))
		if k := rows[i]; k > 0 {
			dst = append(dst, pickRows(l.live, k, v.moreRunning)...)
		}
	}
	return dst
}

// share gives the streams' live blocks room rows: everything when it
// fits; else a fair share each, the most recently active first, then what
// is left over in the same order. A stream given nothing shows its heading
// alone (the oldest idle ones first).
func (v *prettyView) share(lanes []*prettyLane, room int) []int {
	give := make([]int, len(lanes))
	want, with := 0, 0
	for _, l := range lanes {
		if n := l.liveLen(); n > 0 {
			want += n
			with++
		}
	}
	if want <= room {
		for i, l := range lanes {
			give[i] = l.liveLen()
		}
		return give
	}
	order := make([]int, len(lanes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return lanes[b].seq - lanes[a].seq })
	fair := max(room/max(with, 1), 1)
	for _, i := range order {
		n := min(lanes[i].liveLen(), fair, room)
		give[i] = n
		room -= n
	}
	for _, i := range order {
		n := min(lanes[i].liveLen()-give[i], room)
		give[i] += n
		room -= n
	}
	return give
}

// liveLen is how many live rows the lane shows when it has room: none
// once its stream ended.
func (l *prettyLane) liveLen() int {
	if l.end != nil {
		return 0
	}
	return len(l.live)
}

// UseState gives the lane's renderer its stream's session state.
func (l *prettyLane) UseState(st streaming.State) { l.r.UseState(st) }
