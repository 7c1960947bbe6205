package cmd

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// feeder reads the source in its own goroutine, so that a signal can end a
// read that blocks on a silent pipe, and copies every byte to the tee file
// the moment it is read, before any parsing.
type feeder struct {
	ch   chan []byte
	sig  <-chan os.Signal
	cur  []byte
	err  error
	done chan struct{}
	once sync.Once
}

const feedChunk = 64 << 10

func newFeeder(src io.Reader, tee *teeWriter, sig <-chan os.Signal) *feeder {
	f := &feeder{ch: make(chan []byte, 4), sig: sig, done: make(chan struct{})}
	go func() {
		defer close(f.ch)
		for {
			buf := make([]byte, feedChunk)
			n, err := src.Read(buf)
			if n > 0 {
				tee.write(buf[:n])
				select {
				case f.ch <- buf[:n]:
				case <-f.done:
					return
				}
			}
			if err != nil {
				if err != io.EOF {
					f.err = err // written before the send that publishes it
					select {
					case f.ch <- nil:
					case <-f.done:
					}
				}
				return
			}
		}
	}()
	return f
}

// Read implements io.Reader.
func (f *feeder) Read(p []byte) (int, error) {
	for len(f.cur) == 0 {
		select {
		case b, ok := <-f.ch:
			if !ok {
				return 0, io.EOF
			}
			if b == nil {
				return 0, f.err
			}
			f.cur = b
		case s := <-f.sig:
			return 0, &errInterrupted{sig: s}
		}
	}
	n := copy(p, f.cur)
	f.cur = f.cur[n:]
	return n, nil
}

// idle reports that nothing read is waiting: the next Read may block.
func (f *feeder) idle() bool { return len(f.cur) == 0 && len(f.ch) == 0 }

func (f *feeder) stop() { f.once.Do(func() { close(f.done) }) }

// teeWriter copies input to --tee; a write error is reported once and
// rendering goes on.
type teeWriter struct {
	w      io.Writer
	stderr io.Writer
	name   string
	mu     sync.Mutex
	failed bool
}

func (t *teeWriter) write(b []byte) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.failed {
		return
	}
	if _, err := t.w.Write(b); err != nil {
		t.failed = true
		fmt.Fprintf(t.stderr, "agentfmt: --tee %s: %v (rendering goes on)\n", t.name, err)
	}
}

// lockedWriter serialises writes to stderr from the tee goroutine and the
// main loop.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
