package render

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/internal/vtcheck"
	"github.com/agentfmt/agentfmt/streaming"
)

// FuzzPretty drives the renderer with event sequences decoded from the
// input (kinds, ids, parents and texts chosen by its bytes; texts carry
// control bytes, cut UTF-8, wide glyphs, tabs) and checks that it never
// panics, that every row it draws is as wide as it says and no wider than
// the terminal, that its output holds only the sequences it may write, and
// that the cursor is shown again at the end.
func FuzzPretty(f *testing.F) {
	f.Add([]byte("\x00hello world\n\x01\x02tool\x03output\n\x07\x05"), uint8(40), false)
	f.Add([]byte("\x00日本語 🎉 e\u0301 **bold** `code`\n```\n\tcode\n```\n\x04thinking\x09\x00more"), uint8(20), true)
	f.Add([]byte("\x01\x01\x01\x06\x02\x02\x03\x03\x00sub\x08raw \x1b]0;x\x07\x0a\x0b"), uint8(12), false)
	f.Fuzz(func(t *testing.T, data []byte, width uint8, interrupted bool) {
		w := 10 + int(width)%120
		var bad string
		hook := func(width int, commit, live []row) {
			for _, rs := range [][]row{commit, live} {
				for _, r := range rs {
					if c := cells(r.s); c != r.w || r.w > width {
						bad = fmt.Sprintf("row %q: %d cells, says %d, width %d", r.s, c, r.w, width)
					}
				}
			}
			if len(live) > 7 {
				bad = fmt.Sprintf("live region of %d rows on a screen of 8", len(live))
			}
		}
		var out bytes.Buffer
		tick := make(chan time.Time, 1)
		now := epoch
		r, _ := New("pretty", &out, Config{Width: w, Height: 8, Color: len(data)%2 == 0, Thinking: []ThinkingMode{ThinkingSummary, ThinkingFull, ThinkingNone}[len(data)%3], env: renderenv.Env{Tick: tick, Now: func() time.Time { return now }}, drawHook: hook})
		s := streaming.NewSession(r, streaming.Options{})
		ids := []string{"a", "b", "c"}
		for i := 0; i < len(data); {
			op := data[i] % 12
			i++
			j := i
			for j < len(data) && data[j] >= 0x0c {
				j++
			}
			text := string(data[i:j])
			i = j
			id := ids[int(op)%3]
			var ev streaming.Event
			switch op {
			case 0, 9:
				ev = streaming.Event{Kind: streaming.KindTextDelta, Message: "m" + id, Text: text}
			case 1:
				ev = streaming.Event{Kind: streaming.KindToolStart, ID: id, Name: text, Input: `{"command":"`, Subject: subj(`{"command":"`) + fmt.Sprintf("%q", text) + `"}`}
			case 2:
				ev = streaming.Event{Kind: streaming.KindToolEnd, ID: id, Output: text}
			case 3:
				ev = streaming.Event{Kind: streaming.KindToolOutputDelta, ID: id, Text: text}
			case 4:
				ev = streaming.Event{Kind: streaming.KindThinkingDelta, Message: "m" + id, Text: text}
			case 5:
				ev = streaming.Event{Kind: streaming.KindMessageStop, Message: "m" + id}
			case 6:
				ev = streaming.Event{Kind: streaming.KindTextDelta, Message: "s" + id, Parent: ids[(int(op)+1)%3], Text: text}
			case 7:
				ev = streaming.Event{Kind: streaming.KindStatus, Text: text, Level: streaming.LevelWarning}
			case 8:
				ev = streaming.Event{Kind: streaming.KindRaw, Text: text}
			case 10:
				ev = streaming.Event{Kind: streaming.KindResult, OK: len(text)%2 == 0, Reason: text}
			case 11:
				ev = streaming.Event{Kind: streaming.KindToolStart, ID: id + "x", Name: "Task", Parent: id}
			}
			if err := s.Push(&ev); err != nil {
				t.Fatal(err)
			}
			now = now.Add(300 * time.Millisecond)
			select {
			case tick <- now:
			default:
			}
		}
		if !interrupted {
			_ = s.Close()
		}
		o, reason := s.Outcome()
		if err := r.Finish(Summary{Outcome: o, Reason: reason, Interrupted: interrupted}); err != nil {
			t.Fatal(err)
		}
		if bad != "" {
			t.Fatal(bad)
		}
		if err := vtcheck.Sequences(out.Bytes()); err != nil {
			t.Fatal(err)
		}
		if bytes.Count(out.Bytes(), []byte(seqHideCursor)) != bytes.Count(out.Bytes(), []byte(seqShowCursor)) {
			t.Fatal("cursor left hidden")
		}
	})
}
