package render

import (
	"crypto/sha256"
	"runtime"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// TestMarkdownLongLineCopiedOnce: a line of megabytes without an end (an
// answer sent whole as one paragraph) is held once, to be escaped as a
// whole when it ends, and not copied again to write it (that copy's share
// of the peak is in docs/performance.md).
func TestMarkdownLongLineCopiedOnce(t *testing.T) {
	out := sha256.New() // (a buffer of the output would grow by the line itself)
	m := newMarkdown(out, Config{Color: false, Width: 80, Thinking: ThinkingSummary, Tools: ToolsPreview})
	text := strings.Repeat("one paragraph, ", 4<<20/15)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, ev := range []*streaming.Event{
		{Kind: streaming.KindTextDelta, Message: "m", Role: "assistant", Text: text},
		{Kind: streaming.KindBlockStop, Message: "m", BlockKind: streaming.KindTextDelta},
	} {
		if err := m.Handle(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Flush(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > uint64(len(text))*3/2 {
		t.Errorf("a line of %d KiB cost %d KiB (held once: %d)", len(text)>>10, n>>10, len(text)>>10)
	}
}
