// Package gen writes large, realistic agent streams for benchmarks: long
// texts streamed as many small deltas, big tool results, parallel tools,
// in the shapes of Claude Code, Codex and Gemini CLI.
package gen

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

var words = strings.Fields(`the function returns an error when the input is empty so we check it first
and then update the test to cover the new branch while keeping the old behaviour for callers that
rely on it the build passes now and the flaky case no longer fails under the race detector 日本語 テスト
zażółć gęślą jaźń émoji 🎉 done`)

// text returns about n bytes of prose.
func text(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		switch r.IntN(14) {
		case 0:
			b.WriteString(".\n\n")
		case 1:
			b.WriteString(", ")
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// output returns n lines of tool output.
func output(r *rand.Rand, lines int) string {
	var b strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "src/pkg/file%03d.go:%d: %s\n", r.IntN(300), r.IntN(900), text(r, 40+r.IntN(60)))
	}
	return b.String()
}

type writer struct {
	w *bufio.Writer
	n int64
}

func (w *writer) obj(v any) {
	b, _ := json.Marshal(v)
	w.w.Write(b)
	w.w.WriteByte('\n')
	w.n += int64(len(b) + 1)
}

// Claude writes Claude Code stream-json with partial messages until about
// size bytes are written.
func Claude(dst io.Writer, size int64, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 1))
	w := &writer{w: bufio.NewWriterSize(dst, 1<<20)}
	sid := "5f1c2a9e-7b44-4d0e-9c3a-1e8f0d6b2a71"
	for run := 0; w.n < size; run++ {
		w.obj(map[string]any{"type": "system", "subtype": "init", "session_id": sid, "model": "claude-sonnet-4-5", "cwd": "/work", "tools": []string{"Bash", "Read"}, "claude_code_version": "2.1.207"})
		for turn := 0; turn < 20 && w.n < size; turn++ {
			mid := fmt.Sprintf("msg_%d_%d", run, turn)
			se := func(ev map[string]any) {
				w.obj(map[string]any{"type": "stream_event", "event": ev, "session_id": sid, "parent_tool_use_id": nil, "uuid": "u"})
			}
			se(map[string]any{"type": "message_start", "message": map[string]any{"id": mid, "role": "assistant", "content": []any{}}})
			body := text(r, 500+r.IntN(3000))
			se(map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
			for i := 0; i < len(body); {
				n := min(len(body)-i, 1+r.IntN(12))
				for n < len(body)-i && !isStart(body[i+n]) {
					n++
				}
				se(map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": body[i : i+n]}})
				i += n
			}
			w.obj(map[string]any{"type": "assistant", "message": map[string]any{"id": mid, "role": "assistant", "content": []any{map[string]any{"type": "text", "text": body}}}, "session_id": sid, "parent_tool_use_id": nil})
			se(map[string]any{"type": "content_block_stop", "index": 0})
			tools := 1 + r.IntN(3)
			for k := 0; k < tools; k++ {
				tid := fmt.Sprintf("toolu_%d_%d_%d", run, turn, k)
				w.obj(map[string]any{"type": "assistant", "message": map[string]any{"id": mid, "role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": tid, "name": "Bash", "input": map[string]any{"command": "go test ./... -run X" + fmt.Sprint(k)}}}}, "session_id": sid, "parent_tool_use_id": nil})
			}
			se(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use"}, "usage": map[string]any{"output_tokens": 300}})
			se(map[string]any{"type": "message_stop"})
			for k := 0; k < tools; k++ {
				tid := fmt.Sprintf("toolu_%d_%d_%d", run, turn, k)
				w.obj(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": tid, "content": output(r, 5+r.IntN(400)), "is_error": r.IntN(10) == 0}}}, "session_id": sid, "parent_tool_use_id": nil})
			}
		}
		w.obj(map[string]any{"type": "result", "subtype": "success", "is_error": false, "duration_ms": 120000, "num_turns": 20, "result": "done", "total_cost_usd": 0.42, "usage": map[string]any{"input_tokens": 1000, "output_tokens": 5000}, "session_id": sid})
	}
	return w.w.Flush()
}

func isStart(c byte) bool { return c < 0x80 || c >= 0xc0 }

// Codex writes codex exec --json (current format) until about size bytes.
func Codex(dst io.Writer, size int64, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 2))
	w := &writer{w: bufio.NewWriterSize(dst, 1<<20)}
	for run := 0; w.n < size; run++ {
		w.obj(map[string]any{"type": "thread.started", "thread_id": fmt.Sprintf("thread-%d", run)})
		w.obj(map[string]any{"type": "turn.started"})
		for i := 0; i < 30 && w.n < size; i++ {
			id := fmt.Sprintf("item_%d", i)
			w.obj(map[string]any{"type": "item.completed", "item": map[string]any{"id": id + "r", "type": "reasoning", "text": text(r, 200)}})
			w.obj(map[string]any{"type": "item.started", "item": map[string]any{"id": id, "type": "command_execution", "command": "bash -lc 'go test ./...'", "aggregated_output": "", "status": "in_progress"}})
			out := output(r, 3+r.IntN(200))
			w.obj(map[string]any{"type": "item.completed", "item": map[string]any{"id": id, "type": "command_execution", "command": "bash -lc 'go test ./...'", "aggregated_output": out, "exit_code": r.IntN(2), "status": "completed"}})
			w.obj(map[string]any{"type": "item.completed", "item": map[string]any{"id": id + "m", "type": "agent_message", "text": text(r, 300+r.IntN(2000))}})
		}
		w.obj(map[string]any{"type": "turn.completed", "usage": map[string]any{"input_tokens": 5000, "cached_input_tokens": 1000, "output_tokens": 800}})
	}
	return w.w.Flush()
}

// Gemini writes Gemini CLI stream-json until about size bytes.
func Gemini(dst io.Writer, size int64, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 3))
	w := &writer{w: bufio.NewWriterSize(dst, 1<<20)}
	for run := 0; w.n < size; run++ {
		w.obj(map[string]any{"type": "init", "timestamp": "2026-11-22T12:00:00.000Z", "session_id": fmt.Sprintf("s%d", run), "model": "gemini-2.5-pro"})
		w.obj(map[string]any{"type": "message", "timestamp": "2026-11-22T12:00:00.000Z", "role": "user", "content": "do the thing"})
		for i := 0; i < 30 && w.n < size; i++ {
			body := text(r, 300+r.IntN(2000))
			for j := 0; j < len(body); {
				n := min(len(body)-j, 20+r.IntN(80))
				for n < len(body)-j && !isStart(body[j+n]) {
					n++
				}
				w.obj(map[string]any{"type": "message", "timestamp": "2026-11-22T12:00:01.000Z", "role": "assistant", "content": body[j : j+n], "delta": true})
				j += n
			}
			tid := fmt.Sprintf("run_shell_command-%d-%d", run, i)
			w.obj(map[string]any{"type": "tool_use", "timestamp": "2026-11-22T12:00:02.000Z", "tool_name": "run_shell_command", "tool_id": tid, "parameters": map[string]any{"command": "ls -la"}})
			w.obj(map[string]any{"type": "tool_result", "timestamp": "2026-11-22T12:00:03.000Z", "tool_id": tid, "status": "success", "output": output(r, 3+r.IntN(100))})
		}
		w.obj(map[string]any{"type": "result", "timestamp": "2026-11-22T12:00:04.000Z", "status": "success", "stats": map[string]any{"total_tokens": 5000, "input_tokens": 4000, "output_tokens": 1000, "duration_ms": 60000, "tool_calls": 30}})
	}
	return w.w.Flush()
}

// Mixed writes Claude, Codex and Gemini runs in turn until about size bytes.
func Mixed(dst io.Writer, size int64, seed uint64) error {
	chunk := size / 9
	if chunk < 1<<16 {
		chunk = 1 << 16
	}
	cw := &countWriter{w: dst}
	for i := uint64(0); cw.n < size; i++ {
		var err error
		switch i % 3 {
		case 0:
			err = Claude(cw, chunk, seed+i)
		case 1:
			err = Codex(cw, chunk, seed+i)
		default:
			err = Gemini(cw, chunk, seed+i)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Corpus writes the captures of a corpus folder again and again until
// about size bytes are written (each capture whole, so runs stay valid).
func Corpus(dst io.Writer, dir string, size int64) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no captures in %s", dir)
	}
	sort.Strings(files)
	var datas [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, '\n')
		}
		datas = append(datas, b)
	}
	bw := bufio.NewWriterSize(dst, 1<<20)
	var n int64
	for n < size {
		for _, b := range datas {
			bw.Write(b)
			n += int64(len(b))
		}
	}
	return bw.Flush()
}
