package filter

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/view"
	"github.com/agentfmt/agentfmt/streaming"
)

// TestFiltersKeepCopies: an event's strings are valid during Handle only.
// Each event here is built over one buffer that is overwritten after the
// call; what a filter sends later (the words it held back, at the block's
// block.stop) must still name the block's message, role and parent.
func TestFiltersKeepCopies(t *testing.T) {
	t.Parallel()
	type filter interface {
		streaming.Handler
		Close() error
	}
	for name, mk := range map[string]func(streaming.Handler) filter{
		"until":     func(h streaming.Handler) filter { return NewUntil(h, "DONE") },
		"sentences": func(h streaming.Handler) filter { return NewSentences(h) },
	} {
		t.Run(name, func(t *testing.T) {
			c := &collect{}
			f := mk(c)
			s := streaming.NewSession(f, streaming.Options{})
			buf := make([]byte, 64)
			for _, text := range []string{"One. Two", " and three", " DO"} {
				n := copy(buf, "msg_1assistanttool_9")
				n += copy(buf[n:], text)
				ev := streaming.Event{Kind: streaming.KindTextDelta, Agent: "claude", Message: view.String(buf[0:5]),
					Role: view.String(buf[5:14]), Parent: view.String(buf[14:20]), Text: view.String(buf[20:n])}
				if err := s.Push(&ev); err != nil {
					t.Fatal(err)
				}
				for i := range buf {
					buf[i] = '#'
				}
			}
			if err := s.Push(&streaming.Event{Kind: streaming.KindMessageStop, Message: "msg_1", Parent: "tool_9"}); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			if got := c.text(streaming.KindTextDelta); got != "One. Two and three DO" {
				t.Errorf("text %q", got)
			}
			if got := c.text(streaming.KindTextSentence); name == "sentences" && got != "One. Two and three DO" {
				t.Errorf("sentences %q", got)
			}
			for _, e := range c.evs {
				if e.Kind == streaming.KindMessageStop {
					continue
				}
				if e.Message != "msg_1" || e.Role != "assistant" || e.Parent != "tool_9" {
					t.Errorf("%s event %q names message %q role %q parent %q", e.Kind, e.Text, e.Message, e.Role, e.Parent)
				}
			}
		})
	}
}
