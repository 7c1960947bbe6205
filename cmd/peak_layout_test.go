package cmd

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// wholeAnswer writes a Claude run whose one answer of answerSize bytes
// comes whole, in the assistant line and again in the result (claude -p
// without partial messages), as lines of prose or as one paragraph with
// no line end at all.
func wholeAnswer(path string, oneLine bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	text := func() {
		for i := range answerSize / answerDelta {
			c := quoteJSON(answerChunk(i))
			if oneLine {
				c = strings.ReplaceAll(c, `\n`, " ")
			}
			bw.WriteString(c)
		}
	}
	fmt.Fprintln(bw, `{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5","tools":[]}`)
	bw.WriteString(`{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"`)
	text()
	bw.WriteString(`"}]},"session_id":"s1"}` + "\n")
	bw.WriteString(`{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"`)
	text()
	bw.WriteString(`","session_id":"s1"}` + "\n")
	return bw.Flush()
}

// TestLongAnswerPeakRendered: one answer of 48 MiB, streamed or sent whole,
// in lines or as one paragraph, peaks (the whole process's resident set)
// at no more than three times its size above the process's idle peak
// (idleRSS) in pretty and html, which lay it
// out. A whole answer was laid out at once (the peaks it cost are in
// docs/performance.md); pretty now takes a delta of megabytes a piece at
// a time and writes a frame's finished rows as it goes, and html renders a
// delta's markdown a piece at a time. Plain, json and text hold to it
// too: plain held an unfinished line whole and now writes it once 64 KiB
// of it is held. Markdown is left out: it holds a line to escape it as a
// whole (its peak is in docs/performance.md too).
func TestLongAnswerPeakRendered(t *testing.T) {
	t.Parallel()
	testenv.Slow(t)
	if runtime.GOOS != "linux" {
		t.Skip("renders 100 MB in a child process, measured by /usr/bin/time (Linux only)")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("no /usr/bin/time")
	}
	dir := t.TempDir()
	streamed := filepath.Join(dir, "streamed.jsonl")
	f, err := os.Create(streamed)
	if err != nil {
		t.Fatal(err)
	}
	if err := longAnswer(f, "claude"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	whole, para := filepath.Join(dir, "whole.jsonl"), filepath.Join(dir, "paragraph.jsonl")
	if err := wholeAnswer(whole, false); err != nil {
		t.Fatal(err)
	}
	if err := wholeAnswer(para, true); err != nil {
		t.Fatal(err)
	}
	bin := builtBinary(t)
	for _, format := range []string{"pretty", "html", "plain", "json", "text"} {
		args := []string{"-o", format, "--width", "100"}
		bound := idleRSS(t, bin, args...) + 3*answerSize
		for _, file := range []string{streamed, whole, para} {
			peak := maxRSS(t, bin, file, args...)
			t.Logf("%s -o %s: peak %s", filepath.Base(file), format, mib(uint64(peak)))
			if peak > bound {
				t.Errorf("%s -o %s: peak %s, bound %s", filepath.Base(file), format, mib(uint64(peak)), mib(uint64(bound)))
			}
		}
	}
}

// idleRSS is the peak resident set of the agentfmt binary bin with args on
// a run of one short line: what the process costs before any input is
// held (the runtime, the linked packages' tables). The long-input tests
// bound what a long line adds above it.
func idleRSS(t *testing.T, bin string, args ...string) int64 {
	t.Helper()
	short := filepath.Join(t.TempDir(), "short.jsonl")
	line := `{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5","tools":[]}` + "\n"
	if err := os.WriteFile(short, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	return maxRSS(t, bin, short, args...)
}

// maxRSS runs the agentfmt binary bin on file with args, under
// /usr/bin/time, and returns its peak resident set: the figure a user
// measures (a child of the test process itself would count the test
// binary's own memory).
func maxRSS(t *testing.T, bin, file string, args ...string) int64 {
	t.Helper()
	report := filepath.Join(t.TempDir(), "time")
	c := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", report, bin}, append(args, file)...)...)
	if err := c.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		t.Fatalf("/usr/bin/time said %q", b)
	}
	kib, err := strconv.ParseInt(f[len(f)-1], 10, 64)
	if err != nil {
		t.Fatalf("/usr/bin/time said %q", b)
	}
	return kib << 10
}
