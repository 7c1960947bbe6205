package render

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// longPrompt is a user prompt as the long ones of a Claude stream: about
// 86 KB in lines of about 95 bytes, some blank.
func longPrompt() string {
	var b strings.Builder
	for i := 0; b.Len() < 86<<10; i++ {
		if i%12 == 11 {
			b.WriteString("\n")
			continue
		}
		b.WriteString("    ")
		b.WriteString(strings.Repeat("word ", 18))
		b.WriteString("end\n")
	}
	return b.String()
}

// BenchmarkPlainPrompt renders a long user prompt, in one delta, at the
// top level and in a subagent.
func BenchmarkPlainPrompt(b *testing.B) {
	prompt := longPrompt()
	for _, sub := range []bool{false, true} {
		name := "top"
		if sub {
			name = "subagent"
		}
		b.Run(name, func(b *testing.B) {
			p := newPlainRenderer(io.Discard, Config{Color: false, Width: 100, ToolLines: 6,
				Thinking: ThinkingSummary, Tools: ToolsPreview, CI: CINone})
			parent := ""
			if sub {
				_ = p.Handle(&streaming.Event{Kind: streaming.KindToolStart, ID: "task1", Name: "Task"})
				parent = "task1"
			}
			evs := promptEvents(parent, prompt)
			b.SetBytes(int64(len(prompt)))
			b.ReportAllocs()
			for b.Loop() {
				for i := range evs {
					if err := p.Handle(&evs[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// promptEvents are the events of a user prompt as the session hands them
// on: its text, the end of its block, the end of the message.
func promptEvents(parent, prompt string) []streaming.Event {
	return []streaming.Event{
		{Kind: streaming.KindTextDelta, Message: "u1", Role: streaming.RoleUser, Parent: parent, Text: prompt},
		{Kind: streaming.KindBlockStop, Message: "u1", Role: streaming.RoleUser, Parent: parent, BlockKind: streaming.KindTextDelta},
		{Kind: streaming.KindMessageStop, Message: "u1", Role: streaming.RoleUser, Parent: parent},
	}
}

// A long prompt folds in buffers kept from the prompts before: once one
// has been folded, the next allocates nothing (it made a buffer per held
// line and a string per line shown at its end).
func TestPlainPromptReusesBuffers(t *testing.T) {
	p := newPlainRenderer(io.Discard, Config{Color: false, Width: 100, ToolLines: 6,
		Thinking: ThinkingSummary, Tools: ToolsPreview, CI: CINone})
	evs := promptEvents("", longPrompt())
	render := func() {
		for i := range evs {
			if err := p.Handle(&evs[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	render()
	if n := testing.AllocsPerRun(10, render); n > 0 {
		t.Fatalf("%v allocations a prompt", n)
	}
}

// writeLog records the writes the renderer makes.
type writeLog struct {
	out   []byte
	sizes []int
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.out = append(w.out, p...)
	w.sizes = append(w.sizes, len(p))
	return len(p), nil
}

// Lines put together in the writer's buffer come out as the line by line
// path writes them, in writes of the same sizes: past the end of the
// buffer, with a line longer than the buffer, at the top level and in a
// subagent. (A prompt goes line by line: it may be folded.)
func TestPlainIndentedLinesWrites(t *testing.T) {
	t.Parallel()
	prompt := longPrompt() + strings.Repeat("long ", outBuffer/4) + "\n" + longPrompt() + longPrompt() + longPrompt() +
		strings.Repeat("x", outBuffer-5) + "\n" + strings.Repeat("y", outBuffer-3) + "\n" + longPrompt()
	for _, role := range []string{streaming.RoleAssistant} {
		for _, sub := range []bool{false, true} {
			var logs [2]writeLog
			for k, bytewise := range []bool{false, true} {
				p := newPlainRenderer(&logs[k], Config{Color: false, Width: 80, ToolLines: 6,
					Thinking: ThinkingSummary, Tools: ToolsPreview, CI: CINone})
				h := func(ev streaming.Event) {
					if err := p.Handle(&ev); err != nil {
						t.Fatal(err)
					}
				}
				parent := ""
				if sub {
					h(streaming.Event{Kind: streaming.KindToolStart, ID: "task1", Name: "Task"})
					parent = "task1"
				}
				text := prompt
				for len(text) > 0 {
					n := len(text)
					if bytewise {
						n = 1
					}
					h(streaming.Event{Kind: streaming.KindTextDelta, Message: "m", Role: role, Parent: parent, Text: text[:n]})
					text = text[n:]
				}
				h(streaming.Event{Kind: streaming.KindMessageStop, Message: "m", Role: role, Parent: parent})
				if err := p.Finish(Summary{}); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(logs[0].out, logs[1].out) {
				t.Fatalf("%s (subagent %v): the output differs", role, sub)
			}
			if len(logs[0].sizes) < 4 || !slices.Equal(logs[0].sizes, logs[1].sizes) {
				t.Fatalf("%s (subagent %v): writes of %v, line by line %v", role, sub, logs[0].sizes, logs[1].sizes)
			}
		}
	}
}
