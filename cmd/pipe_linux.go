package cmd

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is what growPipe asks for: the largest pipe an unprivileged
// process may make by default (/proc/sys/fs/pipe-max-size).
const pipeSize = 1 << 20

// growPipe enlarges the pipe w is, if it is one, from the usual 64 KB: a
// fast stream's large writes then go through without waiting for the
// reader to drain each 64 KB (half the switches to the reader: see
// docs/performance.md). Nothing changes for the reader, and
// output still goes out as soon as the input goes idle. A refusal leaves
// the pipe as it is.
func growPipe(w io.Writer) {
	f, ok := w.(*os.File)
	if !ok {
		return
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	rc, err := f.SyscallConn() // (Fd would switch the file to blocking mode)
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		if n, err := unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0); err == nil && n < pipeSize {
			_, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize)
		}
	})
}
