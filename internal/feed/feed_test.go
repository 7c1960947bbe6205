package feed

import (
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// A pipe is read ahead in a goroutine of its own, every byte copied to
// the tee as it is read; lines shown beside it (the agent's stderr) come
// between reads.
func TestFeederCopiesAndShowsSide(t *testing.T) {
	t.Parallel()
	var tee strings.Builder
	side := make(chan string, 1)
	side <- "err line"
	close(side)
	var shown []string
	f := NewFeeder(strings.NewReader("a\nb\n"), func(b []byte) { tee.Write(b) }, nil)
	f.Side, f.OnSide = side, func(l string) error { shown = append(shown, l); return nil }
	defer f.Stop()
	got, err := io.ReadAll(f)
	if err != nil || string(got) != "a\nb\n" || tee.String() != "a\nb\n" {
		t.Errorf("read %q (%v), tee %q", got, err, tee.String())
	}
	if len(shown) != 1 || shown[0] != "err line" {
		t.Errorf("side lines shown %q", shown)
	}
}

// A signal ends a read that waits on a silent pipe.
func TestSignalEndsRead(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	sig := make(chan os.Signal, 1)
	src := New(r, nil, sig)
	defer src.Stop()
	if !src.Idle() {
		t.Error("a silent pipe is not idle")
	}
	sig <- syscall.SIGTERM
	var intr *Interrupted
	if _, err := src.Read(make([]byte, 10)); !errors.As(err, &intr) || intr.Sig != syscall.SIGTERM {
		t.Errorf("read: %v", err)
	}
}
