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

// fuzzAgentScript writes $FUZZ_OUT to stdout and $FUZZ_ERR to stderr, one
// after the other or interleaved, leaves a process holding both when
// $FUZZ_HOLD is set, and exits $FUZZ_CODE.
const fuzzAgentScript = `#!/bin/sh
if [ -n "$FUZZ_HOLD" ]; then sleep 30 & echo $! > "$FAKE_DIR/child"; fi
cat "$FAKE_DIR/out" & cat "$FAKE_DIR/err" >&2
wait $!
exit "$FUZZ_CODE"
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
		fr := newFakeRun(t, "capture", "")
		fr.grace = 100 * time.Millisecond
		for name, b := range map[string]string{"out": out, "err": errOut, "bin/fuzzagent": fuzzAgentScript} {
			if err := writeProgram(filepath.Join(fr.dir, name), []byte(b)); err != nil {
				t.Fatal(err)
			}
		}
		hv := ""
		if hold {
			hv = "1"
		}
		t.Setenv("FUZZ_CODE", strconv.Itoa(int(code%4)))
		t.Setenv("FUZZ_HOLD", hv)
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
