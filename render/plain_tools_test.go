package render

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/testenv"
	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/agentfmt/agentfmt/streaming"
)

// Tool calls begun and ended in any order, under each other, inputs
// changed at the end and long inputs: each start and end line has the
// depth and label a simple model gives, though plain keeps nothing of the
// session's calls and the events' text is scribbled over after each
// Handle.
func TestPlainToolCalls(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var out bytes.Buffer
	p := newPlainRenderer(&out, Config{Color: false, Width: 100, ToolLines: 6,
		Thinking: ThinkingSummary, Tools: ToolsNone, CI: CINone})
	sess := streaming.NewSession(p, streaming.Options{})
	depth := map[string]int{}
	depthOf := func(parent string) int {
		if parent == "" {
			return 0
		}
		if d, ok := depth[parent]; ok {
			return d
		}
		return 1
	}
	var open []string
	parentOf := map[string]string{}
	cmdOf := map[string]string{} // (a subagent's lines are labelled with its call's subject)
	var scratch []byte
	steps := 20000
	if !testenv.SlowEnabled() {
		steps = 5000 // every day the first 5000 of the slow run's steps
	}
	for step := range steps {
		kind := streaming.KindToolStart
		var id, parent string
		if len(open) > 0 && rng.IntN(2) == 0 {
			kind = streaming.KindToolEnd
			i := rng.IntN(len(open))
			id = open[i]
			open = append(open[:i], open[i+1:]...)
			parent = parentOf[id]
		} else {
			id = fmt.Sprintf("toolu_%d", step)
			if len(open) > 0 && rng.IntN(3) > 0 {
				parent = open[rng.IntN(len(open))]
			}
			open = append(open, id)
			parentOf[id] = parent
		}
		name := []string{"Bash", "Read", "Task", "Grep"}[rng.IntN(4)]
		cmd := fmt.Sprintf("cmd %d of step %d", rng.IntN(5), step)
		if rng.IntN(50) == 0 {
			cmd += strings.Repeat(" long", 1000)
		}
		input := `{"command":"` + cmd + `"}`
		if kind == streaming.KindToolStart {
			cmdOf[id] = cmd
		}
		// The event's text lives in scratch, scribbled over afterwards.
		scratch = append(scratch[:0], id+parent+name+input...)
		s := view.String(scratch)
		ev := streaming.Event{Kind: kind, ID: s[:len(id)], Parent: s[len(id) : len(id)+len(parent)],
			Name: s[len(id)+len(parent) : len(id)+len(parent)+len(name)], Input: s[len(id)+len(parent)+len(name):], Subject: subj(s[len(id)+len(parent)+len(name):]),
			Status: streaming.ToolOK}
		d := depthOf(parent)
		want := strings.Repeat("  ", d) + "▸ " + name + " " + eventtext.TruncateRunes(cmd, 100-len(name)-4) + "\n"
		if kind == streaming.KindToolStart {
			depth[id] = d + 1
		} else {
			want = strings.Repeat("  ", d) + "✓ " + name + " " + eventtext.TruncateRunes(cmd, 100-len(name)-4) + "\n"
			delete(depth, id)
		}
		out.Reset()
		if err := sess.Push(&ev); err != nil {
			t.Fatal(err)
		}
		if err := p.Flush(); err != nil {
			t.Fatal(err)
		}
		for i := range scratch {
			scratch[i] = 'X'
		}
		got := out.String()
		if c, ok := cmdOf[parent]; ok && depth[parent] > 0 {
			// "  label ┃ ▸ …": the label is the parent's subject, cut.
			i := strings.Index(got, " ┃ ")
			if i < 0 {
				t.Fatalf("step %d: no label in %q", step, got)
			}
			if lab, w := strings.TrimSpace(got[:i]), truncCells(strings.Join(strings.Fields(c), " "), subLabelMax); lab != w {
				t.Fatalf("step %d: label %q, want %q", step, lab, w)
			}
			got = got[:len(got[:i])-len(strings.TrimLeft(got[:i], " "))] + got[i+len(" ┃ "):]
		}
		if got != want {
			t.Fatalf("step %d, %v %s (parent %q):\n got %q\nwant %q", step, kind, id, parent, got, want)
		}
	}
}
