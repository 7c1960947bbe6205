package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/streaming"
)

// promptRun is a run whose prompt has n lines, sent in pieces of piece
// bytes (a prompt may stream like any text).
func promptRun(n, piece int) []streaming.Event {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "prompt line %d\n", i)
	}
	evs := []streaming.Event{{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s"}}
	text := strings.TrimSuffix(b.String(), "\n")
	for len(text) > 0 {
		k := min(piece, len(text))
		evs = append(evs, streaming.Event{Kind: streaming.KindTextDelta, Message: "u", Role: streaming.RoleUser, Text: text[:k]})
		text = text[k:]
	}
	return append(evs, streaming.Event{Kind: streaming.KindMessageStop, Message: "u", Role: streaming.RoleUser},
		streaming.Event{Kind: streaming.KindTextDelta, Message: "a", Role: streaming.RoleAssistant, Text: "Answer."},
		streaming.Event{Kind: streaming.KindMessageStop, Message: "a"},
		streaming.Event{Kind: streaming.KindResult, OK: true})
}

// A prompt (or a compaction summary, which comes as one) longer than a
// screenful is folded in pretty, plain and markdown (issue 24 item 6): its
// first eventtext.PromptHead lines, "… N more lines", its last eventtext.PromptTail lines; a
// shorter one is shown whole.
func TestLongPromptFolded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		format string
		piece  int
	}{{"plain", 7}, {"plain", 1 << 20}, {"plain", 200}, {"pretty", 7}, {"pretty", 1 << 20}, {"markdown", 7}, {"markdown", 1 << 20}} {
		format := tc.format
		t.Run(fmt.Sprint(format, "/", tc.piece), func(t *testing.T) {
			got := renderEvents(t, format, Config{Color: false, Width: 80}, promptRun(978, tc.piece))
			want := []string{"prompt line 1\n", "prompt line 8\n", "… 966 more lines", "prompt line 975\n", "prompt line 978\n", "Answer."}
			rest := got
			for _, w := range want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (or out of order) %q in\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range []string{"prompt line 9\n", "prompt line 974\n"} {
				if strings.Contains(got, n) {
					t.Errorf("%q is shown:\n%s", n, got)
				}
			}
			if rows := strings.Count(got, "\n"); rows > 30 {
				t.Errorf("%d rows for a folded prompt:\n%s", rows, got)
			}
			whole := renderEvents(t, format, Config{Color: false, Width: 80}, promptRun(eventtext.PromptScreen, tc.piece))
			for i := 1; i <= eventtext.PromptScreen; i++ {
				if !strings.Contains(whole, fmt.Sprintf("prompt line %d\n", i)) {
					t.Fatalf("a prompt of a screenful lacks line %d:\n%s", i, whole)
				}
			}
			if strings.Contains(whole, "more line") {
				t.Errorf("a prompt of a screenful is folded:\n%s", whole)
			}
		})
	}
}

// A screenful is counted in rows: lines that wrap count for the rows they
// take at the width (pretty: in the terminal's height), so that pretty and
// plain fold the same prompts.
func TestPromptFoldRows(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 40) // 200 cells: 3 rows at 80
	evs := []streaming.Event{{Kind: streaming.KindSessionStart, Agent: "claude", SessionID: "s"}}
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "%d %s\n", i, long)
	}
	evs = append(evs, streaming.Event{Kind: streaming.KindTextDelta, Message: "u", Role: streaming.RoleUser, Text: b.String()},
		streaming.Event{Kind: streaming.KindMessageStop, Message: "u", Role: streaming.RoleUser})
	got := renderEvents(t, "pretty", Config{Color: false, Width: 80, Height: 30}, evs)
	if !strings.Contains(got, "… 8 more lines") {
		t.Errorf("20 lines of 3 rows each in a 30-row terminal are not folded to 8+4:\n%s", got)
	}
	got = renderEvents(t, "plain", Config{Color: false, Width: 80}, evs)
	if !strings.Contains(got, "… 8 more lines") {
		t.Errorf("plain does not fold 60 rows at width 80:\n%s", got)
	}
	got = renderEvents(t, "plain", Config{Color: false, Width: 300}, evs)
	if strings.Contains(got, "more line") {
		t.Errorf("plain folds 20 rows at width 300:\n%s", got)
	}
}

// A prompt's line shown as it came (plain writes a line's start when the
// input goes idle) counts in the fold's head like any other.
func TestPlainPromptFoldAfterFlush(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	p := newPlainRenderer(&b, Config{Color: false, Width: 80, ToolLines: 6, Tools: ToolsPreview, CI: CINone})
	h := func(ev streaming.Event) {
		if err := p.Handle(&ev); err != nil {
			t.Fatal(err)
		}
	}
	h(streaming.Event{Kind: streaming.KindTextDelta, Message: "u", Role: streaming.RoleUser, Text: "prompt line 1\nprompt li"})
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	var rest strings.Builder
	rest.WriteString("ne 2\n")
	for i := 3; i <= 100; i++ {
		fmt.Fprintf(&rest, "prompt line %d\n", i)
	}
	h(streaming.Event{Kind: streaming.KindTextDelta, Message: "u", Role: streaming.RoleUser, Text: rest.String()})
	h(streaming.Event{Kind: streaming.KindMessageStop, Message: "u", Role: streaming.RoleUser})
	if err := p.Finish(Summary{}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if !strings.Contains(got, "prompt line 8\n  … 88 more lines\n  prompt line 97\n") {
		t.Errorf("the head is not 8 lines:\n%s", got)
	}
}
