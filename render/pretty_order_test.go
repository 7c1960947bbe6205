package render

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// feedLog runs a captured log through the decoder, the session and a
// pretty renderer as the command does. paced draws a frame after every
// line (a live feed with pauses; the clock stands still, so that times
// the renderer measures itself agree); otherwise the frames come only at
// the end (a replay read faster than the frame rate).
func feedLog(t testing.TB, data string, width int, paced bool) []byte {
	t.Helper()
	var out bytes.Buffer
	now := epoch
	tick := make(chan time.Time, 1)
	r, err := New("pretty", &out, Config{Width: width, Height: 24, Color: true, env: renderenv.Env{Tick: tick, Now: func() time.Time { return now }}})
	if err != nil {
		t.Fatal(err)
	}
	pr := r.(*prettyRenderer)
	sess := streaming.NewSession(pr, streaming.Options{})
	dec, err := parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{Scribble: true}, sess)
	if err != nil {
		t.Fatal(err)
	}
	in := input.NewReader(strings.NewReader(data), 0)
	for {
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
		if paced {
			tick <- now
			if err := pr.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := dec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	if err := pr.Finish(Summary{}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestPrettyReplayEqualsPaced: the final scrollback of a replayed log
// equals that of the same log fed line by line with pauses, for captures
// with a subagent (its running line, its work indented under it, then its
// done line and report) and with parallel calls.
func TestPrettyReplayEqualsPaced(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"claude/01-subagents-parallel-task-no-partial.jsonl",
		"claude/10-roma-partial-thinking-input-json-bash-task-2.1.220.jsonl",
		"claude/09-yoke-partial-text-deltas-opus-4-6.jsonl",
	} {
		data, err := os.ReadFile(filepath.Join("..", "..", "shared", "corpus", name))
		if err != nil {
			t.Skipf("corpus not here: %v", err)
		}
		for _, width := range []int{40, 100} {
			replay := vtcheck.Screen(feedLog(t, string(data), width, false), width)
			paced := vtcheck.Screen(feedLog(t, string(data), width, true), width)
			// Durations measured by the renderer's clock differ (the paced
			// feed takes time); nothing else may.
			if a, b := strings.Join(stripTimes(replay), "\n"), strings.Join(stripTimes(paced), "\n"); a != b {
				t.Errorf("%s at %d: replay and paced feed differ:\n--- replay\n%s\n--- paced\n%s", name, width, a, b)
			}
		}
	}
}

var timeRE = regexp.MustCompile(` · [0-9.]+(ms|s)\b| for [0-9.]+(ms|s)\b| · [0-9]+m[0-9]+s\b`)

// stripTimes removes the durations the renderer measured itself.
func stripTimes(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = timeRE.ReplaceAllString(r, "")
	}
	return out
}

// TestPrettySubagentOrder: in a replay, the call that started a subagent
// comes first, its work under it, then its done line.
func TestPrettySubagentOrder(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", "shared", "corpus", "claude", "01-subagents-parallel-task-no-partial.jsonl"))
	if err != nil {
		t.Skipf("corpus not here: %v", err)
	}
	rows := vtcheck.Screen(feedLog(t, string(data), 100, false), 100)
	header, work, done := -1, -1, -1
	for i, r := range rows {
		switch {
		case header < 0 && strings.HasPrefix(r, "▸ "):
			header = i
		case header >= 0 && work < 0 && strings.HasPrefix(r, "  ") && strings.ContainsAny(r, "✓✗"):
			work = i
		case work >= 0 && done < 0 && strings.HasPrefix(r, "✓ ") && strings.Contains(r, rows[header][len("▸ "):len("▸ ")+5]):
			done = i
		}
	}
	if header < 0 || work < header || done < work {
		t.Errorf("header %d, work %d, done %d:\n%s", header, work, done, strings.Join(rows, "\n"))
	}
}
