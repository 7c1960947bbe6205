package cline_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/conformance"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/parsers/cline"
	"github.com/tidwall/gjson"
)

func TestDetect(t *testing.T) {
	cases := []struct {
		line string
		want parsers.Confidence
	}{
		{`{"type":"say","text":"I'll create the file now.","ts":1760501486669,"say":"text"}`, parsers.Decisive},
		{`{"ts":1,"type":"ask","ask":"tool","text":"{}"}`, parsers.Decisive},
		{`{"timestamp":1,"source":"cli","id":"msg-1","type":"welcome","content":""}`, parsers.Decisive},
		{`{"timestamp":1,"source":"extension","type":"say","say":"text","content":"hi"}`, parsers.Decisive},
		{`{"timestamp":1,"source":"cli","type":"assistant","content":"hi"}`, parsers.Decisive},
		{`{"type":"task_started","taskId":"t1"}`, parsers.Decisive},
		{`{"type":"message","timestamp":1,"role":"assistant","messageType":"say","say":"text","text":"x"}`, parsers.Decisive},
		{`{"ts":"2026-01-01T00:00:00Z","type":"run_start","modelId":"m"}`, parsers.Decisive},
		{`{"ts":"2026-01-01T00:00:00Z","type":"agent_event","event":{"type":"done"}}`, parsers.Decisive},
		{`{"type":"error","message":"boom"}`, parsers.Maybe},
		{`{"type":"completion","status":"success","timestamp":1}`, parsers.Maybe},
		// Other agents' lines.
		{`{"type":"assistant","message":{"content":[{"type":"text","text":"x"}]},"session_id":"s"}`, parsers.No},
		{`{"type":"system","subtype":"init","session_id":"s"}`, parsers.No},
		{`{"type":"result","subtype":"success","result":"x"}`, parsers.No},
		{`{"type":"message","role":"assistant","content":"x","delta":true,"timestamp":"2025"}`, parsers.No},
		{`{"type":"text","sessionID":"s","part":{"text":"x"},"timestamp":1}`, parsers.No},
		{`{"type":"item.completed","item":{"id":"i","type":"agent_message","text":"x"}}`, parsers.No},
		{`{"id":"0","msg":{"type":"task_started"}}`, parsers.No},
		{`{"jsonrpc":"2.0","method":"session/update","params":{}}`, parsers.No},
		{`{"type":"user","message":{"role":"user","content":"x"}}`, parsers.No},
		{`{"type":"say"}`, parsers.Maybe},
	}
	for _, c := range cases {
		if got := cline.Agent.Detect(parsers.NewLine(c.line, 1)); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}

// TestDetectOthers checks that no line of another agent's fixtures or
// captures is decisive for cline.
func TestDetectOthers(t *testing.T) {
	var files []string
	for _, pat := range []string{
		filepath.Join("..", "..", "testdata", "*", "*.jsonl"),
		filepath.Join(conformance.CorpusDir(), "*", "*.jsonl"),
		filepath.Join(conformance.CorpusDir(), "*", "*.ndjson"),
	} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	n := 0
	for _, f := range files {
		if dir := filepath.Base(filepath.Dir(f)); dir == "cline" {
			continue
		}
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<28)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if !strings.HasPrefix(line, "{") || !gjson.Valid(line) {
				continue
			}
			n++
			if cline.Agent.Detect(parsers.NewLine(line, 1)) == parsers.Decisive {
				t.Errorf("%s: decisive for cline: %s", f, parsers.Clip(line, 120))
			}
		}
		fh.Close()
	}
	t.Logf("%d lines of %d files", n, len(files))
}
