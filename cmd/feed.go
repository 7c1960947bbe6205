package cmd

import (
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/agentfmt/agentfmt/internal/agentproc"

	"github.com/agentfmt/agentfmt/internal/startgc"
)

// tuneGC sets the collector for a run and returns what
// restores it. A run keeps a small heap (a megabyte or two whatever the
// stream's length) and allocates little more than it reads of long texts,
// so the default GOGC=100 collects often for little. Every format collects
// at GOGC=200: less CPU in every format for a few MiB more at the peak
// (docs/performance.md, the GC tuning row).
//
// A soft memory limit (gcSoftLimit) is for when the live heap is large
// (one answer of tens of megabytes, twice which would be the heap's
// goal): the collector then runs as the heap nears the limit, and, when
// more than that is live (a line of tens of megabytes), more often (the
// runtime bounds its share of the CPU). GOGC and GOMEMLIMIT in the
// environment win.
func tuneGC() (restore func()) {
	gc, limit := -2, int64(-2)
	if os.Getenv("GOGC") == "" {
		gc = debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limit = debug.SetMemoryLimit(gcSoftLimit)
	}
	return func() {
		if gc != -2 {
			debug.SetGCPercent(gc)
		}
		if limit != -2 {
			debug.SetMemoryLimit(limit)
		}
	}
}

// gcPercent is the GOGC of a run, as from the program's start (startgc),
// gcSoftLimit the memory the collector aims to stay under (see tuneGC).
const gcPercent = startgc.Percent

const gcSoftLimit = 64 << 20

// feeder reads the source in its own goroutine, so that a signal can end a
// read that blocks on a silent pipe, and copies every byte to the tee file
// the moment it is read, before any parsing.
type feeder struct {
	ch   chan []byte
	free chan []byte // buffers read out, for the next reads
	sig  <-chan os.Signal
	cur  []byte
	held []byte // the buffer cur is in
	err  error
	done chan struct{}
	once sync.Once
	// side, when set, delivers lines to show between reads (the agent's
	// stderr under 'agentfmt run'): onSide shows each in the reading
	// goroutine. side is set to nil once it is closed.
	side   <-chan string
	onSide func(string) error
	// clock, when set, bounds the wait for input once the agent of
	// 'agentfmt run' has exited: when it runs out, the input has ended.
	clock *agentproc.Clock
}

const (
	feedChunk = 64 << 10
	feedQueue = 4 // chunks read ahead
)

// source is what the pipeline reads a file through.
type source interface {
	io.Reader
	// idle reports that nothing read is waiting: the next Read may block.
	idle() bool
	stop()
}

// newSource returns the reader for src: a regular file is read directly
// (a read never waits, so a signal is seen between reads), anything else
// through a feeder.
func newSource(src io.Reader, tee *teeWriter, sig <-chan os.Signal) source {
	if f, ok := src.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return &fileSource{src: f, tee: tee, sig: sig}
		}
	}
	return newFeeder(src, tee, sig)
}

// fileSource reads a regular file in the pipeline's goroutine: no
// hand-over per chunk.
type fileSource struct {
	src io.Reader
	tee *teeWriter
	sig <-chan os.Signal
}

func (s *fileSource) Read(p []byte) (int, error) {
	select {
	case sg := <-s.sig:
		return 0, &errInterrupted{sig: sg}
	default:
	}
	n, err := s.src.Read(p)
	if n > 0 {
		s.tee.write(p[:n])
	}
	return n, err
}

// idle is false: reading a regular file never blocks, so output is
// flushed when its buffer fills and at the end.
func (s *fileSource) idle() bool { return false }

func (s *fileSource) stop() {}

func newFeeder(src io.Reader, tee *teeWriter, sig <-chan os.Signal) *feeder {
	f := &feeder{ch: make(chan []byte, feedQueue), free: make(chan []byte, feedQueue+2), sig: sig, done: make(chan struct{})}
	go func() {
		defer close(f.ch)
		var buf []byte
		for {
			if buf == nil {
				select {
				case buf = <-f.free:
				default:
					buf = make([]byte, feedChunk)
				}
			}
			n, err := src.Read(buf)
			if n > 0 {
				if a, ok := src.(interface{ Added() bool }); !ok || !a.Added() { // (a newline --follow adds)
					tee.write(buf[:n])
				}
				select {
				case f.ch <- buf[:n]:
					buf = nil // the reader's until it is read out
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
		if f.clock.Spent() {
			return 0, io.EOF
		}
		exit, expire := f.clock.Arm()
		select {
		case b, ok := <-f.ch:
			f.clock.Disarm()
			if !ok {
				return 0, io.EOF
			}
			if b == nil {
				return 0, f.err
			}
			f.cur, f.held = b, b
		case s := <-f.sig:
			f.clock.Disarm()
			return 0, &errInterrupted{sig: s}
		case l, ok := <-f.side:
			f.clock.Disarm()
			if !ok {
				f.side = nil
				continue
			}
			if err := f.onSide(l); err != nil {
				return 0, err
			}
		case <-exit:
			f.clock.Exit()
		case <-expire:
			f.clock.Expire()
			return 0, io.EOF
		}
	}
	n := copy(p, f.cur)
	f.cur = f.cur[n:]
	if len(f.cur) == 0 {
		// Read out: the feeder may fill it again.
		select {
		case f.free <- f.held[:cap(f.held)]:
		default:
		}
		f.held = nil
	}
	return n, nil
}

// idle reports that nothing read is waiting: the next Read may block.
func (f *feeder) idle() bool { return len(f.cur) == 0 && len(f.ch) == 0 }

func (f *feeder) stop() { f.once.Do(func() { close(f.done) }) }

// teeWriter copies input to --tee; a write error is reported once and
// rendering goes on; the run ends with exit 74 (tee.go, finishTee).
type teeWriter struct {
	w      io.Writer
	stderr io.Writer
	name   string
	mu     sync.Mutex
	failed bool
	// copied is how many bytes the file holds; err is the write error
	// that cut the copy short.
	copied int64
	err    error
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
	n, err := t.w.Write(b)
	t.copied += int64(n)
	if err != nil {
		t.failed, t.err = true, err
		warnf(t.stderr, "--tee %s: %v (rendering goes on)", t.name, err)
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
