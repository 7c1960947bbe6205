//go:build unix

package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// TestResizeTmuxWordsOnce runs `agentfmt -o pretty` in a real terminal
// (a tmux pane 80 columns wide) on an answer streamed slowly, makes the
// window narrower (37 columns) while the text streams, and wider again,
// then reads the pane's whole history: every word of the answer is there
// exactly once. tmux re-wraps what is on the screen when it narrows, keeps
// the cursor on the same row, and takes an erase from the screen's
// top-left corner for "clear screen" (it moves the screen to its
// history): the renderer's erase must count the re-wrapped rows and never
// erase that way (render/pretty_screen.go, screen.resize).
func TestResizeTmuxWordsOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary and drives tmux (skipped with -short)")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed: the resize test through a real terminal is skipped")
	}
	bin := hostileBinary(t)
	dir := t.TempDir()
	const words = 450
	stream := filepath.Join(dir, "words.jsonl")
	if err := os.WriteFile(stream, wordStream(words), 0o600); err != nil {
		t.Fatal(err)
	}
	// Each case: the width to start at, then resizes, each when a word
	// has appeared: narrower then wider, early in the run (the live
	// region near the top of the screen), and once the screen is full.
	// The everyday run takes the first (each case streams for seconds);
	// AGENTFMT_SLOW=1 all.
	type resize struct{ word, width int }
	for _, c := range testenv.Cases([]struct {
		start   int
		resizes []resize
	}{
		{80, []resize{{60, 37}, {160, 100}}},
		{80, []resize{{5, 37}}},
		{80, []resize{{30, 37}}},
		{80, []resize{{250, 37}}},
	}, 1) {
		widths := []int{c.start}
		for _, r := range c.resizes {
			widths = append(widths, r.width)
		}
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			script := fmt.Sprintf(`while IFS= read -r l; do printf '%%s\n' "$l"; sleep 0.02; done < %q | %q -o pretty; echo DONE-MARK; sleep 600`, stream, bin)
			run := tmuxPane(t, tmux, widths[0], 24, script)
			capture := func() string { return run("capture-pane", "-t", "t", "-p", "-J", "-S", "-") }
			waitFor := func(marker string) {
				deadline := time.Now().Add(60 * time.Second)
				for !strings.Contains(capture(), marker) {
					if time.Now().After(deadline) {
						t.Fatalf("%q never appeared; the pane:\n%s", marker, capture())
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			for _, r := range c.resizes {
				waitFor(fmt.Sprintf("w%04d", r.word))
				run("resize-window", "-t", "t", "-x", fmt.Sprint(r.width), "-y", "24")
			}
			waitFor("DONE-MARK")
			pane := capture()
			count := map[string]int{}
			for _, m := range regexp.MustCompile(`w\d{4}`).FindAllString(pane, -1) {
				count[m]++
			}
			var bad []string
			for i := 1; i <= words; i++ {
				if w := fmt.Sprintf("w%04d", i); count[w] != 1 {
					bad = append(bad, fmt.Sprintf("%s×%d", w, count[w]))
				}
			}
			if len(bad) > 0 {
				t.Errorf("%d words not shown exactly once (%s …); the pane's history:\n%s", len(bad), strings.Join(bad[:min(len(bad), 8)], " "), pane)
			}
		})
	}
}

// wordStream is a Claude stream-json run whose answer is n numbered words
// (w0001 …), three to a delta, in paragraphs of 75 words.
func wordStream(n int) []byte {
	var b strings.Builder
	line := func(v any) {
		j, _ := json.Marshal(v)
		b.Write(j)
		b.WriteByte('\n')
	}
	type m = map[string]any
	event := func(e m) { line(m{"type": "stream_event", "event": e, "session_id": "s1"}) }
	line(m{"type": "system", "subtype": "init", "session_id": "s1", "model": "claude-sonnet-4", "cwd": "/tmp", "tools": []string{"Bash"}})
	event(m{"type": "message_start", "message": m{"id": "msg_1", "role": "assistant", "model": "claude-sonnet-4", "content": []any{}}})
	event(m{"type": "content_block_start", "index": 0, "content_block": m{"type": "text", "text": ""}})
	for i := 1; i <= n; i += 3 {
		text := ""
		for j := i; j < i+3 && j <= n; j++ {
			text += fmt.Sprintf("w%04d ", j)
		}
		if (i+2)%75 == 0 {
			text += "\n\n"
		}
		event(m{"type": "content_block_delta", "index": 0, "delta": m{"type": "text_delta", "text": text}})
	}
	event(m{"type": "content_block_stop", "index": 0})
	event(m{"type": "message_stop"})
	line(m{"type": "result", "subtype": "success", "is_error": false, "result": "done", "session_id": "s1", "num_turns": 1, "duration_ms": 10})
	return []byte(b.String())
}
