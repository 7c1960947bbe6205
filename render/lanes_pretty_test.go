package render

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// prettyAlone renders one log alone as a lane's renderer does (laneHeight),
// a frame after every line, and returns its final screen.
func prettyAlone(t *testing.T, log string, cfg Config) []string {
	t.Helper()
	var out bytes.Buffer
	tick := make(chan time.Time, 1)
	cfg.Height, cfg.env.Tick = laneHeight, tick
	r, err := New("pretty", &out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := newStream(t, r, log)
	for !s.done {
		s.step(t)
		select {
		case tick <- time.Time{}:
		default:
		}
		r.Flush()
	}
	return vtcheck.Screen(out.Bytes(), cfg.Width)
}

// TestPrettyViewLanes: four logs fed a line of each in turn into the
// pretty view, as a terminal emulator shows the result: the scrollback
// holds every stream's rows, each run of them under a separator naming
// the stream, and each stream's rows are exactly what its log shows alone;
// the screen ends with each stream's summary line, in order.
func TestPrettyViewLanes(t *testing.T) {
	t.Parallel()
	tags := []string{"claude·1a2b", "codex·019f", "claude·77", "w"}
	var logs []string
	for _, n := range laneLogs {
		logs = append(logs, readFixture(t, n))
	}
	for _, width := range []int{80, 43} {
		cfg := Config{Width: width, Height: 24, Color: true, env: renderenv.Env{Now: fixedNow}}
		var out bytes.Buffer
		tick := make(chan time.Time, 1)
		vcfg := cfg
		vcfg.env.Tick = tick
		v, err := NewView("pretty", &out, vcfg)
		if err != nil {
			t.Fatal(err)
		}
		feedViewTick(t, v, tags, logs, tick)
		if err := vtcheck.Sequences(out.Bytes()); err != nil {
			t.Fatal(err)
		}
		rows := vtcheck.Screen(out.Bytes(), width)
		if len(rows) < len(tags) {
			t.Fatalf("%d rows", len(rows))
		}
		heads := rows[len(rows)-len(tags):]
		want := []string{"✓ claude·1a2b", "✓ codex·019f", "✓ claude·77", "✗ w"}
		for i, h := range heads {
			if !strings.HasPrefix(h, want[i]) {
				t.Errorf("width %d: summary line %d is %q, want it to begin %q", width, i, h, want[i])
			}
		}
		got := map[string][]string{}
		cur, switches := "", 0
		for _, r := range rows[:len(rows)-len(tags)] {
			if rest, ok := strings.CutPrefix(r, "── "); ok {
				found := false
				for _, tag := range tags {
					if rest == tag || strings.HasPrefix(rest, tag+" ") {
						cur, found = tag, true
						switches++
					}
				}
				if found {
					continue
				}
			}
			if cur == "" {
				t.Fatalf("a row before any separator: %q", r)
			}
			got[cur] = append(got[cur], r)
		}
		if switches < 2*len(tags) {
			t.Errorf("width %d: the streams' rows did not interleave (%d separators)", width, switches)
		}
		for i, tag := range tags {
			alone := prettyAlone(t, logs[i], cfg)
			if a, b := strings.Join(got[tag], "\n"), strings.Join(alone, "\n"); a != b {
				t.Errorf("width %d, %s: its rows differ from the log shown alone:\n--- view\n%s\n--- alone\n%s", width, tag, a, b)
			}
		}
	}
}

// liveView is a pretty view driven by hand: its last frame's live rows
// are kept.
type liveView struct {
	v    View
	tick chan time.Time
	live []string
	out  bytes.Buffer
}

func newLiveView(t *testing.T, height int) *liveView {
	lv := &liveView{tick: make(chan time.Time, 1)}
	hook := func(_ int, _, live []row) {
		lv.live = lv.live[:0]
		for _, r := range live {
			lv.live = append(lv.live, r.s)
		}
	}
	v, err := NewView("pretty", &lv.out, Config{Width: 60, Height: height, env: renderenv.Env{Now: fixedNow, Tick: lv.tick}, drawHook: hook})
	if err != nil {
		t.Fatal(err)
	}
	lv.v = v
	return lv
}

// frame draws a frame now.
func (lv *liveView) frame(t *testing.T) {
	lv.tick <- time.Time{}
	if err := lv.v.Flush(); err != nil {
		t.Fatal(err)
	}
}

// busyLane starts a stream with n calls running.
func busyLane(t *testing.T, lv *liveView, tag string, n int) Renderer {
	l := lv.v.Lane(Lane{Tag: tag, Agent: "claude", Project: "app"})
	evs := []streaming.Event{{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: tag}}
	for i := range n {
		id := tag + "-" + string(rune('a'+i))
		evs = append(evs, streaming.Event{Kind: streaming.KindToolStart, ID: id, Name: "Bash", Subject: "sleep " + id})
	}
	for i := range evs {
		if err := l.Handle(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func headingsIn(live []string) []string {
	var hs []string
	for _, r := range live {
		if strings.Contains(r, " · app · ") {
			h, _, _ := strings.Cut(r, " · ")
			hs = append(hs, h)
		}
	}
	return hs
}

// TestPrettyViewFitsTheScreen: thirty streams, each waiting on tools,
// on a 24-row screen: the live region stays within half the screen; the
// ten most recently active streams keep a heading (in the order they came)
// and a line counts the others.
func TestPrettyViewFitsTheScreen(t *testing.T) {
	t.Parallel()
	lv := newLiveView(t, 24)
	for i := range 30 {
		busyLane(t, lv, "s"+string(rune('A'+i)), 3)
	}
	lv.frame(t)
	if len(lv.live) > 11 {
		t.Errorf("%d live rows on a 24-row screen:\n%s", len(lv.live), strings.Join(lv.live, "\n"))
	}
	if !strings.HasPrefix(lv.live[0], "… 20 more streams (20 running)") {
		t.Errorf("first live row %q", lv.live[0])
	}
	hs := headingsIn(lv.live)
	var want []string
	for i := 20; i < 30; i++ {
		want = append(want, "⠋ s"+string(rune('A'+i)))
	}
	if strings.Join(hs, "|") != strings.Join(want, "|") {
		t.Errorf("headings %q, want %q", hs, want)
	}
}

// TestPrettyViewOldestIdleFoldsFirst: six streams whose live blocks do
// not all fit: the one that received nothing for longest shows its
// heading alone; every other shows some of its block; a stream that
// becomes active again gets its rows back.
func TestPrettyViewOldestIdleFoldsFirst(t *testing.T) {
	t.Parallel()
	lv := newLiveView(t, 24)
	var lanes []Renderer
	for i := range 6 {
		lanes = append(lanes, busyLane(t, lv, "s"+string(rune('A'+i)), 4))
	}
	lv.frame(t)
	rowsUnder := func(tag string) int {
		n, in := 0, false
		for _, r := range lv.live {
			switch {
			case strings.Contains(r, " · app · "):
				in = strings.Contains(r, " "+tag+" ")
			case in:
				n++
			}
		}
		return n
	}
	if n := rowsUnder("sA"); n != 0 {
		t.Errorf("the oldest idle stream shows %d rows:\n%s", n, strings.Join(lv.live, "\n"))
	}
	for _, tag := range []string{"sB", "sC", "sD", "sE", "sF"} {
		if rowsUnder(tag) == 0 {
			t.Errorf("%s folded before the oldest idle one:\n%s", tag, strings.Join(lv.live, "\n"))
		}
	}
	// sA gets going again: sB is now the oldest idle stream.
	lanes[0].Handle(&streaming.Event{Kind: streaming.KindToolOutputDelta, ID: "sA-a", Text: "progress\n"})
	lv.frame(t)
	if rowsUnder("sA") == 0 || rowsUnder("sB") != 0 {
		t.Errorf("after sA's new output:\n%s", strings.Join(lv.live, "\n"))
	}
	if len(lv.live) > 11 {
		t.Errorf("%d live rows:\n%s", len(lv.live), strings.Join(lv.live, "\n"))
	}
}

// TestPrettyViewStates: a heading says what its stream is doing: running,
// waiting on a tool, done, failed, interrupted.
func TestPrettyViewStates(t *testing.T) {
	t.Parallel()
	lv := newLiveView(t, 40)
	run := lv.v.Lane(Lane{Tag: "r"})
	wait := lv.v.Lane(Lane{Tag: "w"})
	ok := lv.v.Lane(Lane{Tag: "ok"})
	bad := lv.v.Lane(Lane{Tag: "bad"})
	cut := lv.v.Lane(Lane{Tag: "cut"})
	start := func(l Renderer, cwd string) {
		l.Handle(&streaming.Event{Kind: streaming.KindSessionStart, Agent: "codex", SessionID: "019f", CWD: cwd})
	}
	for _, l := range []Renderer{run, wait, ok, bad, cut} {
		start(l, "/src/app")
	}
	run.Handle(&streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Text: "Thinking about it"})
	wait.Handle(&streaming.Event{Kind: streaming.KindToolStart, ID: "t", Name: "Bash", Subject: "make"})
	ok.Handle(&streaming.Event{Kind: streaming.KindResult, OK: true, Turns: 2})
	bad.Handle(&streaming.Event{Kind: streaming.KindResult, OK: false, Reason: "error_max_turns\x1b[31m"})
	cut.Handle(&streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Text: "half"})
	cut.Finish(Summary{Interrupted: true})
	lv.frame(t)
	want := []string{
		"● r · codex · app · 019f · running · 0s",
		"⠋ w · codex · app · 019f · waiting on Bash · 0s",
		"✓ ok · codex · app · 019f · done · 2 turns",
		"✗ bad · codex · app · 019f · failed: error_max_turns␛[31m",
		"⊘ cut · codex · app · 019f · interrupted",
	}
	var got []string
	for _, r := range lv.live {
		if strings.Contains(r, " · app · ") {
			got = append(got, ansiRE.ReplaceAllString(r, ""))
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("headings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPrettyViewHostileLane: what describes a stream (its tag, and the
// project and session a session file names) reaches the terminal with
// its controls made visible.
func TestPrettyViewHostileLane(t *testing.T) {
	t.Parallel()
	lv := newLiveView(t, 24)
	l := lv.v.Lane(Lane{Tag: "claude·\x1b[2J", Agent: "claude", Project: "app\x1b]0;pwned\x07", Session: "\u202eid"})
	l.Handle(&streaming.Event{Kind: streaming.KindToolStart, ID: "t", Name: "Bash\x1b[31m", Subject: "x"})
	lv.frame(t)
	l.Finish(Summary{Interrupted: true})
	lv.v.Finish(true)
	if err := vtcheck.Sequences(lv.out.Bytes()); err != nil {
		t.Error(err)
	}
	for _, raw := range []string{"\x1b[2J", "\x1b]0", "\x07", "\u202e", "\x1b[31m"} {
		if bytes.Contains(lv.out.Bytes(), []byte(raw)) {
			t.Errorf("raw %q reached the terminal", raw)
		}
	}
}

type pipeClosed struct{}

func (pipeClosed) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// TestPrettyViewWriteError: the terminal is the view's; once writing to
// it fails, every lane's next event says so.
func TestPrettyViewWriteError(t *testing.T) {
	t.Parallel()
	tick := make(chan time.Time, 1)
	v, _ := NewView("pretty", pipeClosed{}, Config{Width: 60, Height: 24, env: renderenv.Env{Now: fixedNow, Tick: tick}})
	a, b := v.Lane(Lane{Tag: "a"}), v.Lane(Lane{Tag: "b"})
	ev := streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Text: "hello\n"}
	a.Handle(&ev)
	tick <- time.Time{}
	a.Flush()
	if err := b.Handle(&ev); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("the other lane's next event: %v", err)
	}
}
