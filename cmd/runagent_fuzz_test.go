//go:build !windows

package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fuzzAgentScript writes $FAKE_DIR/out to stdout and $FAKE_DIR/err to
// stderr, one after the other or interleaved, leaves a process holding
// both when $FAKE_DIR/hold exists, and exits with the status in
// $FAKE_DIR/code.
const fuzzAgentScript = `#!/bin/sh
if [ -e "$FAKE_DIR/hold" ]; then sleep 30 & echo $! > "$FAKE_DIR/child"; fi
cat "$FAKE_DIR/out" & cat "$FAKE_DIR/err" >&2
wait $!
exit "$(cat "$FAKE_DIR/code")"
`

// FuzzRunAgent runs a fake agent that prints arbitrary bytes on stdout
// and stderr, exits with an arbitrary status, and may leave a process
// holding its output: agentfmt ends, the tee file holds the agent's
// stdout byte for byte, the exit status is one 'run' gives, agentfmt's
// stderr is safe, and so is what plain writes.
func FuzzRunAgent(f *testing.F) {
	const init = `{"type":"system","subtype":"init","session_id":"s","model":"m"}` + "\n"
	const result = `{"type":"result","subtype":"success","is_error":false,"result":"ok"}` + "\n"
	f.Add(init+result, "", uint8(0), false)
	f.Add(init+result, "warning: \x1b]0;title\x07\x1b[2J\n::error::x\n", uint8(0), true)
	f.Add(init, "Error: not logged in\n", uint8(2), false)
	f.Add(init+`{"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"half`, "", uint8(1), true)
	f.Add("not json at all\n\x00\xff\r\n", strings.Repeat("x", 70<<10), uint8(3), false)
	f.Add("", "", uint8(0), true)
	f.Fuzz(func(t *testing.T, out, errOut string, code uint8, hold bool) {
		t.Parallel() // (the seeds, in a plain test run)
		fr := newFakeRun(t, "capture", "")
		fr.grace = 100 * time.Millisecond
		files := map[string]string{"out": out, "err": errOut, "code": strconv.Itoa(int(code % 4)), "bin/fuzzagent": fuzzAgentScript}
		if hold {
			files["hold"] = ""
		}
		for name, b := range files {
			if err := writeProgram(filepath.Join(fr.dir, name), []byte(b)); err != nil {
				t.Fatal(err)
			}
		}
		tee := filepath.Join(fr.dir, "tee")
		r := fr.runWithin(t, 20*time.Second, "-o", "plain", "--tee", tee, "run", "fuzzagent")
		if hold {
			if pid := fr.childPid(t); !gone(pid) {
				t.Errorf("the process the agent left (%d) is still running", pid)
			}
		}
		if got, _ := os.ReadFile(tee); !bytes.Equal(got, []byte(out)) {
			t.Errorf("tee holds %d bytes, the agent wrote %d", len(got), len(out))
		}
		switch r.code {
		case ExitOK, ExitFailed, ExitIncomplete:
		default:
			t.Errorf("exit %d, stderr %q", r.code, r.stderr)
		}
		if err := stderrSafe(r.stderr); err != nil {
			t.Error(err)
		}
		if err := terminalSafe(r.stdout, false); err != nil {
			t.Error(err)
		}
	})
}
