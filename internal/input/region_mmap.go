//go:build linux || darwin

package input

import "golang.org/x/sys/unix"

// reserve maps size bytes of private anonymous memory that the system
// provides page by page as they are written (MAP_NORESERVE: no swap is
// set aside for what is never written).
func reserve(size int) ([]byte, error) {
	return unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
}

// free gives the pages of b back to the system; they read as zeros after.
func free(b []byte) { _ = unix.Madvise(b, unix.MADV_DONTNEED) }
