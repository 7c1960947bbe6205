package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
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

// TestLanesLiveShowsRunningCalls replays two logs at once, a line of
// each in turn, into the view of several streams (--follow A B) in an
// emulated terminal, and reads the screen after every frame: when the
// streams share the live region's rows, each running call of each stream
// is still on the screen in (nearly) every frame, once.
func TestLanesLiveShowsRunningCalls(t *testing.T) {
	t.Parallel()
	logs := liveLogs(t)
	demo := logs["cmd/demo/session.jsonl"]
	i := 0
	for _, name := range slices.Sorted(maps.Keys(logs)) {
		if !strings.Contains(name, "demo") && !strings.Contains(name, "subagent") && !strings.Contains(name, "/01-") {
			continue // (the logs with the most calls at once)
		}
		data := logs[name]
		// Both sizes in the slow run; every day each log at one, in turn.
		sizes := [][2]int{{80, 24}, {100, 40}}
		if !testenv.SlowEnabled() {
			sizes = sizes[i%2 : i%2+1]
		}
		i++
		for _, size := range sizes {
			t.Run(fmt.Sprintf("%s-%dx%d", name, size[0], size[1]), func(t *testing.T) {
				t.Parallel()
				running, missed, first, twice := replayLanes(t, [][]byte{demo, data}, size[0], size[1])
				if twice != "" {
					t.Errorf("a call drawn twice:\n%s", twice)
				}
				if missed*20 > running {
					t.Errorf("a running call is off the screen in %d of %d frames; the first:\n%s", missed, running, first)
				}
			})
		}
	}
}

// replayLanes feeds the logs, a line of each in turn, to lanes of one
// pretty view, a frame after each round, and counts the frames drawn
// while calls ran and those that missed one.
func replayLanes(t *testing.T, logs [][]byte, width, height int) (running, missed int, first, twice string) {
	var out bytes.Buffer
	now := epoch
	tick := make(chan time.Time, 1)
	v, err := NewView("pretty", &out, Config{Width: width, Height: height, Color: true, env: renderenv.Env{Tick: tick, Now: func() time.Time { return now }}})
	if err != nil {
		t.Fatal(err)
	}
	type lane struct {
		sess *streaming.Session
		dec  *parsers.Decoder
		in   *input.Reader
		done bool
	}
	var lanes []*lane
	for i, data := range logs {
		l := &lane{in: input.NewReader(bytes.NewReader(data), 0)}
		l.sess = streaming.NewSession(v.Lane(Lane{Tag: fmt.Sprintf("stream%d", i+1)}), streaming.Options{})
		if l.dec, err = parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{Scribble: true}, l.sess); err != nil {
			t.Fatal(err)
		}
		lanes = append(lanes, l)
	}
	term := vtcheck.NewTerm(width, height)
	defer term.Close()
	for n := 1; ; n++ {
		more := false
		for _, l := range lanes {
			if l.done {
				continue
			}
			ln, err := l.in.Next()
			if errors.Is(err, io.EOF) {
				l.done = true
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			more = true
			if err := l.dec.Decode(ln); err != nil {
				t.Fatal(err)
			}
		}
		if !more {
			break
		}
		now = now.Add(40 * time.Millisecond)
		tick <- now
		if err := v.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.Len() == 0 {
			continue
		}
		term.Write(out.Bytes())
		out.Reset()
		want := map[string]int{}
		for _, l := range lanes {
			for _, c := range l.sess.Calls() {
				want[sanitize.String(c.Name, sanitize.Options{})]++
			}
		}
		if len(want) == 0 {
			continue
		}
		rows := term.Rows()
		var calls []string // (a lane's heading has a spinner too)
		for _, r := range rows {
			if !laneHeading.MatchString(r) {
				calls = append(calls, r)
			}
		}
		miss, two := vtcheck.CallsShown(calls, want)
		screen := fmt.Sprintf("after round %d, running %v:\n%s", n, want, joinLines(rows))
		if two != "" && twice == "" {
			twice = screen
		}
		running++
		if miss > 0 {
			missed++
			if first == "" {
				first = screen
			}
		}
	}
	return running, missed, first, twice
}

// laneHeading is the heading row of a lane whose stream runs.
var laneHeading = regexp.MustCompile(`^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] stream\d`)

func joinLines(rows []string) string {
	var b bytes.Buffer
	for _, r := range rows {
		b.WriteString(r)
		b.WriteByte('\n')
	}
	return b.String()
}
