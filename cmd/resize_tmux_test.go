//go:build unix

package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// TestResizeTmuxWordsOnce runs `agentfmt -o pretty` in a real terminal
// (a tmux pane 80 columns wide) on an answer the test writes into it a
// line at a time, makes the window narrower (37 columns) once a given word
// is on the screen, and wider again, then reads the pane's whole history:
// every word of the answer is there exactly once. tmux re-wraps what is on
// the screen when it narrows, keeps the cursor on the same row, and takes
// an erase from the screen's top-left corner for "clear screen" (it moves
// the screen to its history): the renderer's erase must count the
// re-wrapped rows and never erase that way (render/pretty_screen.go,
// screen.resize).
func TestResizeTmuxWordsOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("drives tmux (skipped with -short)")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed: the resize test through a real terminal is skipped")
	}
	bin := hostileBinary(t)
	const words = 450
	stream := wordStream(words)
	// Each case: the width to start at, then resizes, each when a word
	// has appeared: narrower then wider, early in the run (the live
	// region near the top of the screen), and once the screen is full.
	// The everyday run takes the first; AGENTFMT_SLOW=1 all.
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
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			lines := bytes.SplitAfter(stream, []byte("\n"))
			fifo := filepath.Join(t.TempDir(), "in")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("no fifo: %v", err)
			}
			run := tmuxPane(t, tmux, c.start, 24, fmt.Sprintf(`%q -o pretty < %q; echo DONE-MARK; sleep 600`, bin, fifo))
			in, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			capture := func() string { return run("capture-pane", "-t", "t", "-p", "-J", "-S", "-") }
			waitFor := func(marker string) {
				deadline := time.Now().Add(60 * time.Second)
				for !strings.Contains(capture(), marker) {
					if time.Now().After(deadline) {
						t.Fatalf("%q never appeared; the pane:\n%s", marker, capture())
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			// write sends the stream's lines up to the one holding word
			// (all that are left when word is empty).
			write := func(word string) {
				for len(lines) > 0 {
					l := lines[0]
					lines = lines[1:]
					if _, err := in.Write(l); err != nil {
						t.Fatal(err)
					}
					if word != "" && bytes.Contains(l, []byte(word)) {
						return
					}
				}
			}
			for _, r := range c.resizes {
				word := fmt.Sprintf("w%04d", r.word)
				write(word)
				waitFor(word)
				run("resize-window", "-t", "t", "-x", fmt.Sprint(r.width), "-y", "24")
			}
			write("")
			in.Close()
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
