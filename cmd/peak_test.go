package cmd

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// The peak memory of one long answer (streaming.Session: a block's text is
// kept once, so one long answer costs about its own size). Peak is the
// child process's maximum resident set (getrusage), the figure a user sees,
// which sampling the live heap would miss: transient copies count.

const (
	answerSize  = 48 << 20           // one answer of 48 MiB
	answerDelta = 8 << 10            // streamed as 8 KiB deltas
	answerBound = answerSize * 5 / 2 // 120 MiB: 2.5× the answer (issue 23 item 6)
)

// answerChunk is the i-th 8 KiB delta of prose with a newline every 80
// bytes (escaped on the wire). Each is different: identical deltas are
// genuine text too, but an answer of one repeated chunk would not show a
// session that drops them.
func answerChunk(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%07d ", i)
	for b.Len() < answerDelta {
		b.WriteString("The build passes now; the flaky test waited on a port that was never released.\n"[:79] + "\n")
	}
	return b.String()[:answerDelta]
}

func quoteJSON(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "\n", `\n`)
}

// longAnswer writes a run whose one answer is answerSize bytes streamed in
// answerDelta deltas: Claude (stream events, then the assistant frame and
// the result that repeat the whole text, as Claude Code writes them) or
// Gemini (delta messages, then the result).
func longAnswer(w io.Writer, agent string) error { return longAnswerOf(w, agent, answerSize) }

// longAnswerOf is longAnswer for an answer of size bytes.
func longAnswerOf(w io.Writer, agent string, size int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	n := size / answerDelta
	chunks := make([]string, n)
	for i := range chunks {
		chunks[i] = quoteJSON(answerChunk(i))
	}
	switch agent {
	case "claude":
		fmt.Fprintln(bw, `{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5","tools":[]}`)
		fmt.Fprintln(bw, `{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_1","role":"assistant","content":[]}}}`)
		fmt.Fprintln(bw, `{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}}`)
		for i := 0; i < n; i++ {
			fmt.Fprintf(bw, `{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"%s"}}}`+"\n", chunks[i])
		}
		fmt.Fprintln(bw, `{"type":"stream_event","event":{"type":"content_block_stop","index":0}}`)
		bw.WriteString(`{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"`)
		for _, c := range chunks {
			bw.WriteString(c)
		}
		bw.WriteString(`"}]},"session_id":"s1"}` + "\n")
		fmt.Fprintln(bw, `{"type":"stream_event","event":{"type":"message_stop"}}`)
		bw.WriteString(`{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"`)
		for _, c := range chunks {
			bw.WriteString(c)
		}
		bw.WriteString(`","session_id":"s1"}` + "\n")
	case "gemini":
		fmt.Fprintln(bw, `{"type":"init","timestamp":"2026-01-01T00:00:00Z","session_id":"s1","model":"gemini-2.5-pro"}`)
		for i := 0; i < n; i++ {
			fmt.Fprintf(bw, `{"type":"message","timestamp":"2026-01-01T00:00:01Z","role":"assistant","content":"%s","delta":true}`+"\n", chunks[i])
		}
		fmt.Fprintln(bw, `{"type":"result","timestamp":"2026-01-01T00:00:02Z","status":"success","stats":{"total_tokens":1}}`)
	}
	return bw.Flush()
}

// TestPeakHelper is the child process of peakRSS: agentfmt itself, on the
// real standard streams.
func TestPeakHelper(t *testing.T) {
	args := os.Getenv("AGENTFMT_PEAK_ARGS")
	if args == "" {
		t.Skip("run by peakRSS")
	}
	env := OSEnv()
	env.Signals, env.Resize = nil, nil
	code := Run(strings.Fields(args), env)
	if out := os.Getenv("AGENTFMT_PEAK_OUT"); out != "" {
		os.WriteFile(out, []byte(vmHWM()), 0o600)
	}
	os.Exit(code)
}

// vmHWM is this process's peak resident set as /proc/self/status gives it
// ("VmHWM: 123 kB"), or "" off Linux. Unlike the child's rusage maxrss,
// which keeps the parent's resident set from before exec (os/exec starts
// children with CLONE_VM), it is the peak of this program alone.
func vmHWM() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" && f[2] == "kB" {
			return f[1]
		}
	}
	return ""
}

// peakRSS runs agentfmt with args on the file in a child process and
// returns its peak resident set.
func peakRSS(tb testing.TB, file string, args ...string) int64 {
	in, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer in.Close()
	c := exec.Command(os.Args[0], "-test.run=^TestPeakHelper$")
	hwm := filepath.Join(tb.TempDir(), "vmhwm")
	c.Env = append(os.Environ(), "AGENTFMT_PEAK_ARGS="+strings.Join(args, " "), "AGENTFMT_PEAK_OUT="+hwm)
	c.Stdin = in
	if err := c.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			tb.Fatal(err)
		}
	}
	if b, err := os.ReadFile(hwm); err == nil {
		if kib, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			return kib << 10
		}
	}
	ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		tb.Skip("no rusage here")
	}
	return ru.Maxrss << 10 // KiB on Linux (includes the parent's before exec)
}

// TestLongAnswerPeak: one long answer streamed as 8 KiB deltas costs at
// most 2.5 times its size in peak memory in -o plain, -o json and -o text,
// for Claude and Gemini (120 MiB for 48 MiB: issue 23 item 6). The bound
// is checked on what the answer adds: the peaks of a 24 and a 48 MiB
// answer are measured, and their difference must stay under 2.5 times 24
// MiB (a copy of the answer adds 1 to the factor; the test binary's own
// size, larger than agentfmt's, cancels out). The session keeps the text
// once, in pieces; -o json writes it out as it escapes it; the command
// joins the answer only for a renderer that shows it (text), which writes
// it without another copy. The Claude stream repeats the whole answer in
// two single lines (the assistant frame and result.result), each held
// once while it is compared with the block: the reader grows a long line
// in place (not in pieces joined into a second copy), and the decoder
// decodes the text over its escaped text in the line (not into a copy).
// docs/performance.md has the peaks before.
func TestLongAnswerPeak(t *testing.T) {
	testenv.Slow(t)
	if testenv.Race || runtime.GOOS != "linux" {
		t.Skip("renders 150 MB in a child process (skipped with -race and off Linux)")
	}
	for _, agent := range []string{"claude", "gemini"} {
		files := map[int]string{}
		for _, size := range []int{answerSize / 2, answerSize} {
			file := filepath.Join(t.TempDir(), agent+".jsonl")
			f, err := os.Create(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := longAnswerOf(f, agent, size); err != nil {
				t.Fatal(err)
			}
			f.Close()
			files[size] = file
		}
		for _, format := range []string{"plain", "json", "text"} {
			half, whole := peakRSS(t, files[answerSize/2], "-o", format), peakRSS(t, files[answerSize], "-o", format)
			t.Logf("%s -o %s: peak %s with the answer of %s, %s with half of it", agent, format,
				mib(uint64(whole)), mib(answerSize), mib(uint64(half)))
			if added, bound := whole-half, int64(answerBound/2); added > bound {
				t.Errorf("%s -o %s: the second half of the answer adds %s to the peak, bound %s (2.5 times it)",
					agent, format, mib(uint64(added)), mib(uint64(bound)))
			}
		}
	}
}

// TestWriteLongAnswer writes the long-answer logs for measuring by hand
// (AGENTFMT_LONG_ANSWER=dir).
func TestWriteLongAnswer(t *testing.T) {
	dir := os.Getenv("AGENTFMT_LONG_ANSWER")
	if dir == "" {
		t.Skip("set AGENTFMT_LONG_ANSWER=dir")
	}
	for _, agent := range []string{"claude", "gemini"} {
		f, err := os.Create(filepath.Join(dir, agent+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := longAnswer(f, agent); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}
