package cmd

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// TestInterruptBeforeInput: agentfmt waiting on a stdin that has given
// nothing yet, then Ctrl-C: no run began, so none is shown interrupted
// (exit 130 all the same).
func TestInterruptBeforeInput(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"plain", "pretty", "markdown"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			pr, pw := io.Pipe()
			defer pw.Close()
			sig := make(chan os.Signal, 1)
			out, errb := &safeBuffer{}, &safeBuffer{}
			env := &Env{Stdin: pr, Stdout: out, Stderr: errb, Getenv: func(string) string { return "" },
				Signals: sig, Now: time.Now, Tick: make(chan time.Time)}
			done := make(chan int, 1)
			go func() { done <- Run([]string{"-o", format}, env) }()
			time.Sleep(20 * time.Millisecond)
			sig <- os.Interrupt
			select {
			case code := <-done:
				if code != ExitInterrupted {
					t.Errorf("exit %d, want 130", code)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Ctrl-C did not end it")
			}
			if strings.Contains(out.String(), "nterrupted") {
				t.Errorf("a run that never began shown interrupted:\n%s", out.String())
			}
		})
	}
}
