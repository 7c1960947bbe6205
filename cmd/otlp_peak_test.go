package cmd

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// toolCalls writes a Claude run of n tool calls, one after the other.
func toolCalls(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintln(bw, `{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5","tools":[]}`)
	for i := range n {
		fmt.Fprintf(bw, `{"type":"assistant","message":{"id":"msg_%d","role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":"echo %d"}}]},"session_id":"s1"}`+"\n", i, i, i)
		fmt.Fprintf(bw, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"%d","is_error":false}]},"session_id":"s1"}`+"\n", i, i)
	}
	fmt.Fprintln(bw, `{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"done","session_id":"s1","usage":{"input_tokens":1,"output_tokens":1}}`)
	return bw.Flush()
}

// TestOTLPToolCallsPeak: exporting a run's spans does not keep them: the
// peak memory of -o none --otlp on 100,000 tool calls is about that on
// 50,000 (a span leaves as it ends, through a bounded queue).
func TestOTLPToolCallsPeak(t *testing.T) {
	testenv.Slow(t)
	if testenv.Race || runtime.GOOS != "linux" {
		t.Skip("renders 100,000 tool calls in a child process (skipped with -race and off Linux)")
	}
	var posts atomic.Int64
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		posts.Add(1)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer sink.Close()
	peaks := map[int]int64{}
	for _, n := range []int{50_000, 100_000} {
		file := filepath.Join(t.TempDir(), "calls.jsonl")
		f, err := os.Create(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := toolCalls(f, n); err != nil {
			t.Fatal(err)
		}
		f.Close()
		peaks[n] = peakRSS(t, file, "-o", "none", "--otlp="+sink.URL)
		t.Logf("%d tool calls: peak %s", n, mib(uint64(peaks[n])))
	}
	if posts.Load() == 0 {
		t.Fatal("no spans came")
	}
	if added := peaks[100_000] - peaks[50_000]; added > 8<<20 {
		t.Errorf("50,000 more tool calls add %s to the peak: spans pile up", mib(uint64(added)))
	}
}

// TestWriteToolCalls writes the run of 100,000 tool calls for measuring
// by hand (AGENTFMT_TOOL_CALLS=file; docs/performance.md).
func TestWriteToolCalls(t *testing.T) {
	path := os.Getenv("AGENTFMT_TOOL_CALLS")
	if path == "" {
		t.Skip("writes a file when AGENTFMT_TOOL_CALLS names one")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := toolCalls(f, 100_000); err != nil {
		t.Fatal(err)
	}
}
