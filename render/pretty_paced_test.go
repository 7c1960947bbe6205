package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// liveWatch is the pretty renderer with the latest plan kept aside, so a
// test knows what the live region should show.
type liveWatch struct {
	*prettyRenderer
	plan []streaming.PlanEntry
}

func (w *liveWatch) Handle(ev *streaming.Event) error {
	if ev.Kind == streaming.KindPlan {
		// (a copy: the decoder may reuse the line the texts lie in)
		w.plan = w.plan[:0]
		for _, e := range ev.Entries {
			e.Text = strings.Clone(e.Text)
			w.plan = append(w.plan, e)
		}
	}
	return w.prettyRenderer.Handle(ev)
}

// liveReport is what a paced replay saw on the screen.
type liveReport struct {
	frames  int      // frames that wrote to the terminal
	running int      // of them, frames drawn while calls ran
	missed  int      // of those, frames with a running call not on the screen
	faults  []string // what else was wrong, frame by frame
	first   string   // the first frame that missed a call, screen and all
}

func (rep *liveReport) fault(n int, format string, args ...any) {
	if len(rep.faults) < 5 {
		rep.faults = append(rep.faults, fmt.Sprintf("after line %d: ", n)+fmt.Sprintf(format, args...))
	}
}

// sgrRE matches the colour sequences rows carry.
var sgrRE = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// replayLive feeds a log to a pretty renderer at its pace, one line at a
// time with a frame after every few (a live feed: the clock moves on by
// step per line), every frame written to an emulated terminal of width×height,
// and reads the screen after every frame, as a person watching would:
//
//   - the screen's last rows are the live region the renderer laid out
//     (no row written over another, none left behind);
//   - every call the session holds open has its running line on the
//     screen, unless a "… N more running" row counts it; no call has two;
//   - a plan in the live region is there whole.
func replayLive(t testing.TB, data []byte, width, height, every int, step time.Duration) liveReport {
	t.Helper()
	var out bytes.Buffer
	now := epoch
	tick := make(chan time.Time, 1)
	r, err := New("pretty", &out, Config{Width: width, Height: height, Color: true, env: renderenv.Env{Tick: tick, Now: func() time.Time { return now }}})
	if err != nil {
		t.Fatal(err)
	}
	w := &liveWatch{prettyRenderer: r.(*prettyRenderer)}
	sess := streaming.NewSession(w, streaming.Options{})
	dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{Scribble: true}, sess)
	if err != nil {
		t.Fatal(err)
	}
	term := vtcheck.NewTerm(width, height)
	defer term.Close()
	var rep liveReport
	in := input.NewReader(bytes.NewReader(data), 0)
	for n := 1; ; n++ {
		l, err := in.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := dec.Decode(l); err != nil {
			t.Fatal(err)
		}
		now = now.Add(step)
		if n%every != 0 {
			continue
		}
		tick <- now
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.Len() == 0 {
			continue
		}
		term.Write(out.Bytes())
		out.Reset()
		rep.frames++
		var live []string // the region as the screen writer last drew it
		for _, rw := range w.scr.rows {
			live = append(live, strings.TrimRight(sgrRE.ReplaceAllString(rw.s, ""), " "))
		}
		rep.check(n, term.Rows(), live, sess.Calls(), w.plan)
	}
	if err := dec.Close(); err != nil {
		t.Fatal(err)
	}
	return rep
}

// check reads one frame's screen.
func (rep *liveReport) check(n int, screen, live []string, open []*streaming.Call, plan []streaming.PlanEntry) {
	for len(screen) > 0 && screen[len(screen)-1] == "" {
		screen = screen[:len(screen)-1]
	}
	for len(live) > 0 && live[len(live)-1] == "" {
		live = live[:len(live)-1]
	}
	show := func() string { return strings.Join(screen, "\n") }
	if len(live) > len(screen) || strings.Join(screen[len(screen)-len(live):], "\n") != strings.Join(live, "\n") {
		rep.fault(n, "the screen does not end in the live region:\n--- live\n%s\n--- screen\n%s", strings.Join(live, "\n"), show())
	}
	want := map[string]int{}
	for _, c := range open {
		want[sanitize.String(c.Name, sanitize.Options{})]++
	}
	missing, twice := vtcheck.CallsShown(screen, want)
	if twice != "" {
		rep.fault(n, "more running lines of %s on the screen than run (%v):\n%s", twice, want, show())
	}
	if len(open) > 0 {
		rep.running++
		if missing > 0 {
			rep.missed++
			if rep.first == "" {
				rep.first = fmt.Sprintf("after line %d, running %v:\n%s", n, want, show())
			}
		}
	}
	if len(plan) > 0 {
		region := vtcheck.Squash(strings.Join(live, "\n"))
		in := 0
		for _, e := range plan {
			if strings.Contains(region, vtcheck.Squash(strings.Join(strings.Fields(e.Text), " "))) {
				in++
			}
		}
		if in > 0 && in < len(plan) {
			rep.fault(n, "%d of the plan's %d entries in the live region:\n%s", in, len(plan), strings.Join(live, "\n"))
		}
	}
}

// liveLogs are the logs the live view is checked on: the demo's session,
// the fixtures of Claude (with and without partial messages), Codex and
// Gemini, and their real captures when ../shared/corpus is here.
func liveLogs(t *testing.T) map[string][]byte {
	logs := map[string][]byte{}
	add := func(pattern string) {
		names, _ := filepath.Glob(pattern)
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			logs[strings.TrimPrefix(name, "../")] = b
		}
	}
	add("../cmd/demo/session.jsonl")
	for _, agent := range []string{"claude", "codex", "gemini"} {
		add(filepath.Join("..", "testdata", agent, "*.jsonl"))
		add(filepath.Join("..", "..", "shared", "corpus", agent, "*.jsonl"))
	}
	return logs
}

// TestPrettyLiveShowsRunningCalls replays each log at its pace into an
// emulated terminal and reads the screen after every frame: each running
// call on the screen, once, in (nearly) every frame; the region drawn as
// laid out; a plan whole. At 80×24 (a fresh tmux window) and 100×40.
func TestPrettyLiveShowsRunningCalls(t *testing.T) {
	t.Parallel()
	logs := liveLogs(t)
	for i, name := range slices.Sorted(maps.Keys(logs)) {
		data := logs[name]
		// A frame after every line, and after every other one (lines
		// that come together are drawn in one frame): every log both
		// ways in the slow run, every day each log one way, in turn.
		cases := []struct{ width, height, every int }{{80, 24, 1}, {100, 40, 2}}
		if !testenv.SlowEnabled() {
			cases = cases[i%2 : i%2+1]
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s-%dx%d", name, c.width, c.height), func(t *testing.T) {
				t.Parallel()
				rep := replayLive(t, data, c.width, c.height, c.every, 40*time.Millisecond)
				for _, f := range rep.faults {
					t.Error(f)
				}
				// A frame may miss a call only while the run's first rows
				// leave no room for it (Pretty.clip): one in twenty.
				if rep.missed*20 > rep.running {
					t.Errorf("a running call is off the screen in %d of %d frames; the first:\n%s", rep.missed, rep.running, rep.first)
				}
			})
		}
	}
}
