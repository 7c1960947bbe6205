package cmd

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestGrowPipe(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	size := func() int {
		n, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := size()
	growPipe(w)
	want := pipeSize
	if b, err := os.ReadFile("/proc/sys/fs/pipe-max-size"); err == nil {
		if m, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && m < want {
			want = max(m, before)
		}
	}
	if got := size(); got != want {
		t.Errorf("pipe size %d after growPipe (was %d), want %d", got, before, want)
	}
	// A file that is not a pipe is left alone.
	growPipe(os.Stderr)
	growPipe(nil)
}
