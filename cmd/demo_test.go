package cmd

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// TestDemoPacing replays the bundled session with a fake clock: it must
// finish in under 15 seconds at the default speed, and twice as fast at 2.
func TestDemoPacing(t *testing.T) {
	t.Parallel()
	total := func(speed float64) time.Duration {
		var slept time.Duration
		p := newPacedReader(demoSession, speed)
		p.sleep = func(d time.Duration) { slept += d }
		b, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, demoSession) {
			t.Fatal("paced reader changed the session")
		}
		return slept
	}
	one, two := total(1), total(2)
	if one <= 2*time.Second || one >= 15*time.Second {
		t.Errorf("demo takes %v at speed 1, want between 2s and 15s", one)
	}
	if d := one/2 - two; d < -time.Millisecond || d > time.Millisecond {
		t.Errorf("speed 2 takes %v, want half of %v", two, one)
	}
}

// TestDemoSessionRenders checks the bundled session shows what the demo
// promises: thinking, streamed text, parallel and failed tool calls, a
// subagent and a result with cost, each answer once, exit 0.
func TestDemoSessionRenders(t *testing.T) {
	t.Parallel()
	r := cli{args: []string{"-o", "plain", "--width", "100"}, stdin: bytes.NewReader(demoSession)}.run(t)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"✻ thinking", "✗ Bash", "▸ Task Review money arithmetic",
		"  Review money arithm… ┃   │ internal/orders/cart.go:12",
		"── ✓ done", "$0.0847"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	if n := strings.Count(r.stdout, "The cart now keeps cents as `int64` behind a mutex"); n != 1 {
		t.Errorf("final answer shown %d times", n)
	}
	if n := strings.Count(r.stdout, "Totals are float64 sums"); n != 1 {
		t.Errorf("the subagent's answer shown %d times", n)
	}
}

// TestDemoInput: the demo is paced on a terminal, and when --speed is
// given; written at once to a file or a pipe.
func TestDemoInput(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	for _, c := range []struct {
		tty, speed, paced bool
	}{{true, false, true}, {false, false, false}, {false, true, true}} {
		env := &Env{Stdout: &out, IsTerminal: func(io.Writer) bool { return c.tty }}
		_, paced := demoInput(env, 1, c.speed).(*pacedReader)
		if paced != c.paced {
			t.Errorf("terminal %v, --speed %v: paced %v, want %v", c.tty, c.speed, paced, c.paced)
		}
	}
}
