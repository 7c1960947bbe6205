package cmd

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// memStreamSize is how much generated input TestMemoryConstant renders per
// format: thousands of runs, messages and tool calls, so that anything kept
// per finished message, tool or run shows as growth.
const memStreamSize = 96 << 20

// heapSampler reads src and, every step bytes, collects garbage and notes
// the live heap.
type heapSampler struct {
	src     io.Reader
	step    int64
	read    int64
	next    int64
	samples []uint64 // live heap (HeapAlloc after a GC), in order
}

// liveHeap is the live heap before a run: what earlier tests of the
// package left in global caches (compiled highlighting lexers, say) is
// not the run's.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// warmPeak is the live heap after the first quarter of the stream
// (memories of recent ids filled) and the most it reached from there on.
func (h *heapSampler) warmPeak() (warm, peak uint64) {
	after := h.samples[len(h.samples)/4:]
	for _, s := range after {
		peak = max(peak, s)
	}
	return after[0], peak
}

func (h *heapSampler) Read(p []byte) (int, error) {
	n, err := h.src.Read(p)
	h.read += int64(n)
	if h.read >= h.next {
		h.next += h.step
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		h.samples = append(h.samples, ms.HeapAlloc)
	}
	return n, err
}

// TestMemoryConstant renders a long generated stream (Claude, Codex and
// Gemini runs in turn) with plain, json and text output and checks that
// the live heap does not grow with the length of the stream: nothing may
// be kept per finished message, tool call or run beyond a bounded memory
// of recent ids.
func TestMemoryConstant(t *testing.T) {
	testenv.Slow(t)
	if testenv.Race {
		t.Skip("renders hundreds of MB (skipped with -race; .ci/run runs it without)")
	}
	path := mixedLog(t, memStreamSize, 7)

	for _, format := range []string{"plain", "json", "text"} {
		t.Run(format, func(t *testing.T) {
			in, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			h := &heapSampler{src: in, step: memStreamSize / 16}
			env := &Env{Stdin: h, Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
			base := liveHeap() // what the package's other tests left live is not the run's
			if code := Run([]string{"-o", format}, env); code != ExitOK && code != ExitFailed && code != ExitIncomplete {
				t.Fatalf("exit %d", code)
			}
			if len(h.samples) < 8 {
				t.Fatalf("only %d samples", len(h.samples))
			}
			// After the first quarter (memories of recent ids filled), the
			// live heap stays put: a leak of even 100 bytes per message or
			// tool call would add megabytes over the rest of the stream.
			warm, peak := h.warmPeak()
			t.Logf("%s: live heap %s after a quarter, peak %s after, %s at the end", format,
				mib(warm), mib(peak), mib(h.samples[len(h.samples)-1]))
			const bound = 12 << 20
			if peak > base+bound {
				t.Errorf("live heap reached %s, %s over the %s before the run (bound %s)", mib(peak), mib(peak-base), mib(base), mib(bound))
			}
			if peak > warm+2<<20 {
				t.Errorf("live heap grew from %s to %s over the stream", mib(warm), mib(peak))
			}
		})
	}
}

// manySmall writes about size bytes of short runs in the Claude, Codex and
// Gemini formats: a new message, tool call (and every few, a new run and
// session) every few hundred bytes, each with ids never seen before, so
// that even a few bytes kept per message, tool or run add up.
func manySmall(w io.Writer, size int64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var n int64
	p := func(format string, args ...any) {
		k, _ := fmt.Fprintf(bw, format, args...)
		n += int64(k)
	}
	for i := 0; n < size; i++ {
		switch i / 50 % 3 {
		case 0:
			if i%50 == 0 {
				p(`{"type":"system","subtype":"init","session_id":"s%d","model":"m","cwd":"/w","tools":["Bash"],"claude_code_version":"2.1.207"}`+"\n", i)
			}
			p(`{"type":"assistant","message":{"id":"msg_%d","role":"assistant","content":[{"type":"text","text":"step %d done\nnext"}]},"session_id":"s","parent_tool_use_id":null}`+"\n", i, i)
			p(`{"type":"assistant","message":{"id":"msg_%d","role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":"ls %d"}}]},"session_id":"s","parent_tool_use_id":null}`+"\n", i, i, i)
			p(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"a\nb\nc %d","is_error":false}]},"session_id":"s","parent_tool_use_id":null}`+"\n", i, i)
			if i%50 == 49 {
				p(`{"type":"result","subtype":"success","is_error":false,"duration_ms":10,"num_turns":50,"result":"done %d","session_id":"s"}`+"\n", i)
			}
		case 1:
			if i%50 == 0 {
				p(`{"type":"thread.started","thread_id":"t%d"}`+"\n"+`{"type":"turn.started"}`+"\n", i)
			}
			p(`{"type":"item.started","item":{"id":"item_%d","type":"command_execution","command":"ls","aggregated_output":"","status":"in_progress"}}`+"\n", i)
			p(`{"type":"item.completed","item":{"id":"item_%d","type":"command_execution","command":"ls","aggregated_output":"x\ny %d","exit_code":0,"status":"completed"}}`+"\n", i, i)
			p(`{"type":"item.completed","item":{"id":"msg_%d","type":"agent_message","text":"did %d"}}`+"\n", i, i)
			if i%50 == 49 {
				p(`{"type":"turn.completed","usage":{"input_tokens":5,"cached_input_tokens":1,"output_tokens":8}}` + "\n")
			}
		default:
			if i%50 == 0 {
				p(`{"type":"init","timestamp":"2026-11-22T12:00:00.000Z","session_id":"g%d","model":"gemini-2.5-pro"}`+"\n", i)
			}
			p(`{"type":"message","timestamp":"2026-11-22T12:00:01.000Z","role":"assistant","content":"part %d ","delta":true}`+"\n", i)
			p(`{"type":"tool_use","timestamp":"2026-11-22T12:00:02.000Z","tool_name":"run_shell_command","tool_id":"run-%d","parameters":{"command":"ls"}}`+"\n", i)
			p(`{"type":"tool_result","timestamp":"2026-11-22T12:00:03.000Z","tool_id":"run-%d","status":"success","output":"o %d"}`+"\n", i, i)
			if i%50 == 49 {
				p(`{"type":"result","timestamp":"2026-11-22T12:00:04.000Z","status":"success","stats":{"total_tokens":5,"input_tokens":4,"output_tokens":1,"duration_ms":6,"tool_calls":1}}` + "\n")
			}
		}
	}
	return bw.Flush()
}

// TestMemoryManySmall is TestMemoryConstant on a stream of a few hundred
// thousand tiny messages and tool calls with fresh ids.
func TestMemoryManySmall(t *testing.T) {
	testenv.Slow(t)
	if testenv.Race {
		t.Skip("renders tens of MB (skipped with -race; .ci/run runs it without)")
	}
	const size = 48 << 20
	for _, format := range []string{"plain", "json", "text"} {
		t.Run(format, func(t *testing.T) {
			base := liveHeap()
			pr, pw := io.Pipe()
			go func() { pw.CloseWithError(manySmall(pw, size)) }()
			h := &heapSampler{src: pr, step: size / 16}
			env := &Env{Stdin: h, Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
			if code := Run([]string{"-o", format}, env); code != ExitOK && code != ExitFailed && code != ExitIncomplete {
				t.Fatalf("exit %d", code)
			}
			pr.Close()
			warm, peak := h.warmPeak()
			t.Logf("%s: live heap %s after a quarter, peak %s after, %s at the end", format,
				mib(warm), mib(peak), mib(h.samples[len(h.samples)-1]))
			// About 300,000 messages and tool calls: 10 bytes kept per
			// call would show as 3 MB.
			if peak > warm+1<<20 {
				t.Errorf("live heap grew from %s to %s over the stream", mib(warm), mib(peak))
			}
			if peak > base+8<<20 {
				t.Errorf("live heap reached %s (%s before the run)", mib(peak), mib(base))
			}
		})
	}
}

// longRun writes one run of n steps in an agent's format (assistant text,
// a tool call and its output of a kilobyte each step), with fresh ids.
func longRun(w io.Writer, kind string, n int) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	pad := strings.Repeat("output line of a command\\n", 40)
	switch kind {
	case "codex":
		fmt.Fprintf(bw, `{"type":"thread.started","thread_id":"t1"}`+"\n"+`{"type":"turn.started"}`+"\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(bw, `{"type":"item.started","item":{"id":"item_%d","type":"command_execution","command":"ls","aggregated_output":"","status":"in_progress"}}`+"\n", i)
			fmt.Fprintf(bw, `{"type":"item.completed","item":{"id":"item_%d","type":"command_execution","command":"ls","aggregated_output":"%s","exit_code":0,"status":"completed"}}`+"\n", i, pad)
			fmt.Fprintf(bw, `{"type":"item.completed","item":{"id":"msg_%d","type":"agent_message","text":"did %d %s"}}`+"\n", i, i, pad)
		}
	case "opencode":
		for i := 0; i < n; i++ {
			fmt.Fprintf(bw, `{"type":"step_start","timestamp":1,"sessionID":"ses_1","part":{"id":"prt_s%d","sessionID":"ses_1","messageID":"msg_%d","type":"step-start"}}`+"\n", i, i)
			fmt.Fprintf(bw, `{"type":"text","timestamp":1,"sessionID":"ses_1","part":{"id":"prt_t%d","sessionID":"ses_1","messageID":"msg_%d","type":"text","text":"step %d %s"}}`+"\n", i, i, i, pad)
			fmt.Fprintf(bw, `{"type":"tool_use","timestamp":1,"sessionID":"ses_1","part":{"id":"prt_u%d","sessionID":"ses_1","messageID":"msg_%d","type":"tool","callID":"call_%d","tool":"bash","state":{"status":"completed","input":{"command":"ls"},"output":"%s","title":"ls"}}}`+"\n", i, i, i, pad)
			fmt.Fprintf(bw, `{"type":"step_finish","timestamp":1,"sessionID":"ses_1","part":{"id":"prt_f%d","sessionID":"ses_1","messageID":"msg_%d","type":"step-finish","reason":"tool-calls"}}`+"\n", i, i)
		}
	case "gemini":
		fmt.Fprintf(bw, `{"type":"init","timestamp":"2026-11-22T12:00:00.000Z","session_id":"g1","model":"gemini-2.5-pro"}`+"\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(bw, `{"type":"message","timestamp":"2026-11-22T12:00:01.000Z","role":"assistant","content":"part %d %s","delta":true}`+"\n", i, pad)
			fmt.Fprintf(bw, `{"type":"tool_use","timestamp":"2026-11-22T12:00:02.000Z","tool_name":"run_shell_command","tool_id":"run-%d","parameters":{"command":"ls"}}`+"\n", i)
			fmt.Fprintf(bw, `{"type":"tool_result","timestamp":"2026-11-22T12:00:03.000Z","tool_id":"run-%d","status":"success","output":"%s"}`+"\n", i, pad)
		}
	case "claude":
		fmt.Fprintf(bw, `{"type":"system","subtype":"init","session_id":"s0","model":"m","cwd":"/w","tools":["Bash"],"claude_code_version":"2.1.207"}`+"\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(bw, `{"type":"assistant","message":{"id":"msg_%d","role":"assistant","content":[{"type":"text","text":"step %d %s"}]},"session_id":"s","parent_tool_use_id":null}`+"\n", i, i, pad)
			fmt.Fprintf(bw, `{"type":"assistant","message":{"id":"msg_%d","role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":"ls %d"}}]},"session_id":"s","parent_tool_use_id":null}`+"\n", i, i, i)
			fmt.Fprintf(bw, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"%s","is_error":false}]},"session_id":"s","parent_tool_use_id":null}`+"\n", i, pad)
		}
	}
	return bw.Flush()
}

// TestMemoryLongRun renders one run of tens of thousands of steps per
// agent: what a parser keeps for the run (ids, texts to compare with)
// must not grow with it.
func TestMemoryLongRun(t *testing.T) {
	testenv.Slow(t)
	if testenv.Race {
		t.Skip("renders tens of MB (skipped with -race; .ci/run runs it without)")
	}
	for _, kind := range []string{"claude", "gemini", "opencode", "codex"} {
		t.Run(kind, func(t *testing.T) {
			base := liveHeap()
			pr, pw := io.Pipe()
			go func() { pw.CloseWithError(longRun(pw, kind, 20000)) }()
			h := &heapSampler{src: pr, step: 4 << 20}
			env := &Env{Stdin: h, Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
			Run([]string{"-o", "json"}, env)
			pr.Close()
			warm, peak := h.warmPeak()
			t.Logf("%s: live heap %s after a quarter, peak %s after", kind, mib(warm), mib(peak))
			if peak > warm+2<<20 || peak > base+8<<20 {
				t.Errorf("live heap grew from %s to %s over one run", mib(warm), mib(peak))
			}
		})
	}
}

func mib(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
