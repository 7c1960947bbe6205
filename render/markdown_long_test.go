package render

import (
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/streaming"
)

// longMarkdownPrompt is a user prompt of 4000 lines in one event, as Claude echoes
// a pasted document.
func longMarkdownPrompt() []streaming.Event {
	body := strings.Repeat("a-0001: ledger compaction caller generation ledger compaction\n", 4000)
	return []streaming.Event{
		{Kind: streaming.KindMessageStart, Message: "u", Role: streaming.RoleUser},
		{Kind: streaming.KindTextDelta, Message: "u", Role: streaming.RoleUser, Text: body},
		{Kind: streaming.KindMessageStop, Message: "u", Role: streaming.RoleUser},
	}
}

// TestMarkdownLongTextLinear: a block of many lines costs memory in
// proportion to its length (each line was once found in a copy of all
// that was left: 8 GB for a 250 KB prompt).
func TestMarkdownLongTextLinear(t *testing.T) {
	evs := longMarkdownPrompt()
	r := newMarkdown(io.Discard, Config{})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range evs {
		if err := r.Handle(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if n, size := after.TotalAlloc-before.TotalAlloc, uint64(len(evs[1].Text)); n > 8*size {
		t.Errorf("%d bytes allocated for a %d-byte block", n, size)
	}
}

func BenchmarkMarkdownPrompt(b *testing.B) {
	evs := longMarkdownPrompt()
	b.SetBytes(int64(len(evs[1].Text)))
	b.ReportAllocs()
	for b.Loop() {
		r := newMarkdown(io.Discard, Config{})
		for i := range evs {
			if err := r.Handle(&evs[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
