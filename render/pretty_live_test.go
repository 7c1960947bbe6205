package render

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// syncBuffer is a bytes.Buffer safe for the clock goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPrettyRealClock runs the real timer: frames are drawn without
// Flush, the clock goroutine stops by itself when nothing is live, starts
// again with new work, and is gone after Finish. No timing is asserted,
// only that things happen eventually.
func TestPrettyRealClock(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	r, _ := New("pretty", &out, Config{Width: 80, Height: 24, Color: false})
	p := r.(*prettyRenderer)
	running := func() bool { p.mu.Lock(); defer p.mu.Unlock(); return p.clock.running }

	s := streaming.NewSession(p, streaming.Options{})
	must := func(ev streaming.Event) {
		if err := s.Push(&ev); err != nil {
			t.Fatal(err)
		}
	}
	must(streaming.Event{Kind: streaming.KindToolStart, ID: "t1", Name: "Bash", Input: `{"command":"make"}`, Subject: subj(`{"command":"make"}`)})
	must(streaming.Event{Kind: streaming.KindTextDelta, Message: "m1", Text: "partial text"})
	waitFor(t, "the timer draws the region", func() bool { return strings.Contains(out.String(), "partial text") })
	if !running() {
		t.Error("the clock stopped while a tool runs")
	}
	must(streaming.Event{Kind: streaming.KindToolEnd, ID: "t1", Output: "done\n"})
	must(streaming.Event{Kind: streaming.KindResult, OK: true})
	waitFor(t, "the clock stops when nothing is live", func() bool { return !running() })
	waitFor(t, "the result line is drawn", func() bool { return strings.Contains(out.String(), "✓ done") })

	must(streaming.Event{Kind: streaming.KindSessionStart, SessionID: "again"})
	if !running() {
		t.Error("new work did not start the clock")
	}
	if err := p.Finish(Summary{Interrupted: true}); err != nil {
		t.Fatal(err)
	}
	if running() {
		t.Error("the clock still runs after Finish")
	}
	got := out.String()
	if !strings.HasSuffix(got, "\n"+seqShowCursor) || strings.Count(got, seqHideCursor) != 1 {
		t.Errorf("cursor not restored at the end: %q", got[max(0, len(got)-40):])
	}
	if err := p.Handle(&streaming.Event{Kind: streaming.KindTextDelta, Message: "x", Text: "late"}); err != nil {
		t.Error(err)
	}
	if err := p.Finish(Summary{}); err != nil {
		t.Error(err)
	}
	if out.String() != got {
		t.Error("output after Finish")
	}
}

// TestPrettyFlushDrawsWhenIdle: without a tick, Flush draws the pending
// region (the first frame is always allowed), and Finish always brings the
// final state to the screen.
func TestPrettyFlushDrawsWhenIdle(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	tick := make(chan time.Time) // never fires
	r, _ := New("pretty", &out, Config{Width: 80, Color: false, env: renderenv.Env{Tick: tick}})
	p := r.(*prettyRenderer)
	_ = p.Handle(&streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Text: "first words"})
	if out.String() != "" {
		t.Errorf("Handle wrote: %q", out.String())
	}
	_ = p.Handle(&streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Text: " and the last"})
	if err := p.Finish(Summary{}); err != nil {
		t.Fatal(err)
	}
	rows := vtcheck.Screen([]byte(out.String()), 80)
	if vtcheck.Count(rows, "first words and the last") != 1 {
		t.Errorf("final text not on screen: %q", rows)
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, syscall.EPIPE
}

// TestPrettyWriteError: a failed write is returned by Handle and Finish,
// and nothing more is attempted after it.
func TestPrettyWriteError(t *testing.T) {
	t.Parallel()
	fw := &failWriter{}
	tick := make(chan time.Time, 1)
	r, _ := New("pretty", fw, Config{Width: 80, env: renderenv.Env{Tick: tick}})
	p := r.(*prettyRenderer)
	tick <- time.Now()
	err := p.Handle(&streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Text: "hi\n"})
	if !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("Handle = %v, want EPIPE", err)
	}
	if err := p.Finish(Summary{}); !errors.Is(err, syscall.EPIPE) {
		t.Errorf("Finish = %v, want EPIPE", err)
	}
	if fw.n != 1 {
		t.Errorf("%d writes after the first failed", fw.n-1)
	}
}

// TestPrettyResize: on SIGWINCH the size is re-read and the region drawn
// anew at the new width; --width (no TermSize) ignores resizes.
func TestPrettyResize(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	tick := make(chan time.Time, 1)
	resize := make(chan os.Signal, 1)
	width := 40
	r, _ := New("pretty", &out, Config{Width: 40, Height: 10, Color: false, Resize: resize, TermSize: func() (int, int, bool) { return width, 10, true }, env: renderenv.Env{Tick: tick}})
	p := r.(*prettyRenderer)
	tm := vtcheck.NewTerm(40, 10)
	defer tm.Close()
	sess := streaming.NewSession(p, streaming.Options{})
	text := func(s string) {
		for _, c := range s {
			_ = sess.Push(&streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Text: string(c)})
		}
	}
	_ = sess.Push(&streaming.Event{Kind: streaming.KindToolStart, ID: "t", Name: "Bash", Input: `{"command":"sleep 1"}`, Subject: subj(`{"command":"sleep 1"}`)})
	text("a first line that is long enough to wrap at forty cells\nand a partial")
	tick <- time.Now()
	_ = p.Flush()
	tm.Write(out.Bytes())
	out.Reset()

	width = 60
	tm.Resize(60, 10)
	resize <- syscall.SIGWINCH
	text(" line that goes on past the old width")
	tick <- time.Now()
	_ = p.Flush()
	_ = sess.Push(&streaming.Event{Kind: streaming.KindToolEnd, ID: "t"})
	_ = p.Finish(Summary{})
	tm.Write(out.Bytes())
	got := strings.Join(tm.All(), "\n")
	for _, want := range []string{"and a partial line that goes on past the old width", "✓ Bash sleep 1"} {
		if !strings.Contains(vtcheck.Squash(got), vtcheck.Squash(want)) {
			t.Errorf("screen lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(vtcheck.Squash(got), vtcheck.Squash("a first line that is long enough to wrap at forty cells")) != 1 {
		t.Errorf("first line not exactly once:\n%s", got)
	}
	if p.scr.width != 60 {
		t.Errorf("width %d after resize, want 60", p.scr.width)
	}
}

// TestNextDue: the clock wakes for the next spinner frame while a tool
// runs, for the next second of the status line while a run goes, for a
// dirty region after the frame interval, and not at all when nothing is
// live.
func TestNextDue(t *testing.T) {
	t.Parallel()
	shown := epoch
	r, _ := New("pretty", io.Discard, Config{Width: 80, env: renderenv.Env{Tick: make(chan time.Time), Now: func() time.Time { return shown }}})
	p := r.(*prettyRenderer)
	sess := streaming.NewSession(p, streaming.Options{})
	wall := time.Unix(5000, 0)
	if _, ok := p.nextDue(wall); ok {
		t.Error("a frame is due with nothing live")
	}
	_ = sess.Push(&streaming.Event{Kind: streaming.KindToolStart, ID: "t", Name: "Bash"})
	p.frame(false) // drawn at shown = epoch
	due, ok := p.nextDue(wall)
	if !ok || due.Sub(wall) != spinnerInterval {
		t.Errorf("spinner frame due in %v, want %v", due.Sub(wall), spinnerInterval)
	}
	shown = epoch.Add(spinnerInterval + time.Millisecond) // the timer fired late
	if due, _ := p.nextDue(wall); due.After(wall) {
		t.Errorf("a late spinner frame is not due now but in %v", due.Sub(wall))
	}
	_ = sess.Push(&streaming.Event{Kind: streaming.KindToolEnd, ID: "t"})
	p.frame(false)
	due, ok = p.nextDue(wall)
	if !ok || due.Sub(wall) <= 0 || due.Sub(wall) > time.Second {
		t.Errorf("status line second due in %v", due.Sub(wall))
	}
	_ = p.Handle(&streaming.Event{Kind: streaming.KindResult, OK: true})
	if due, ok := p.nextDue(wall); !ok || due != p.clock.last.Add(frameInterval) {
		t.Errorf("dirty region due at %v, want %v", due, p.clock.last.Add(frameInterval))
	}
	p.frame(false)
	if _, ok := p.nextDue(wall); ok {
		t.Error("a frame is due after the run ended")
	}
}
