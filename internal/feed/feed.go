// Package feed reads a stream's input for the chain that decodes it: a
// regular file directly, anything else (a pipe, the agent's stdout) in a
// goroutine of its own, so that a signal ends a read that waits, every
// byte copied to --tee as it is read.
package feed

import (
	"io"
	"os"
	"sync"

	"github.com/agentfmt/agentfmt/internal/agentproc"
)

// Feeder reads the source in its own goroutine, so that a signal can end a
// read that blocks on a silent pipe, and copies every byte to the tee file
// the moment it is read, before any parsing.
type Feeder struct {
	ch   chan []byte
	free chan []byte // buffers read out, for the next reads
	sig  <-chan os.Signal
	cur  []byte
	held []byte // the buffer cur is in
	err  error
	done chan struct{}
	once sync.Once
	// Side, when set, delivers lines to show between reads (the agent's
	// stderr under 'agentfmt run'): OnSide shows each in the reading
	// goroutine. Side is set to nil once it is closed.
	Side   <-chan string
	OnSide func(string) error
	// Clock, when set, bounds the wait for input once the agent of
	// 'agentfmt run' has exited: when it runs out, the input has ended.
	Clock *agentproc.Clock
}

const (
	feedChunk = 64 << 10
	feedQueue = 4 // chunks read ahead
)

// Source is what a stream's input is read through.
type Source interface {
	io.Reader
	// Idle reports that nothing read is waiting: the next Read may block.
	Idle() bool
	// Stop ends the reading ahead.
	Stop()
}

// Interrupted is what a Source's Read returns when a signal arrives.
type Interrupted struct{ Sig os.Signal }

func (e *Interrupted) Error() string { return "interrupted" }

// New returns the reader for src, which copies what it reads to tee
// (nil: nowhere) and ends at a signal of sig: a regular file is read
// directly (a read never waits, so a signal is seen between reads),
// anything else through a Feeder.
func New(src io.Reader, tee func([]byte), sig <-chan os.Signal) Source {
	if f, ok := src.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return &fileSource{src: f, tee: tee, sig: sig}
		}
	}
	return NewFeeder(src, tee, sig)
}

// fileSource reads a regular file in the pipeline's goroutine: no
// hand-over per chunk.
type fileSource struct {
	src io.Reader
	tee func([]byte)
	sig <-chan os.Signal
}

func (s *fileSource) Read(p []byte) (int, error) {
	select {
	case sg := <-s.sig:
		return 0, &Interrupted{Sig: sg}
	default:
	}
	n, err := s.src.Read(p)
	if n > 0 && s.tee != nil {
		s.tee(p[:n])
	}
	return n, err
}

// Idle is false: reading a regular file never blocks, so output is
// flushed when its buffer fills and at the end.
func (s *fileSource) Idle() bool { return false }

func (s *fileSource) Stop() {}

// NewFeeder returns a Feeder of src (see New).
func NewFeeder(src io.Reader, tee func([]byte), sig <-chan os.Signal) *Feeder {
	f := &Feeder{ch: make(chan []byte, feedQueue), free: make(chan []byte, feedQueue+2), sig: sig, done: make(chan struct{})}
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
				if a, ok := src.(interface{ Added() bool }); tee != nil && (!ok || !a.Added()) { // (a newline --follow adds)
					tee(buf[:n])
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
func (f *Feeder) Read(p []byte) (int, error) {
	for len(f.cur) == 0 {
		if f.Clock.Spent() {
			return 0, io.EOF
		}
		exit, expire := f.Clock.Arm()
		select {
		case b, ok := <-f.ch:
			f.Clock.Disarm()
			if !ok {
				return 0, io.EOF
			}
			if b == nil {
				return 0, f.err
			}
			f.cur, f.held = b, b
		case s := <-f.sig:
			f.Clock.Disarm()
			return 0, &Interrupted{Sig: s}
		case l, ok := <-f.Side:
			f.Clock.Disarm()
			if !ok {
				f.Side = nil
				continue
			}
			if err := f.OnSide(l); err != nil {
				return 0, err
			}
		case <-exit:
			f.Clock.Exit()
		case <-expire:
			f.Clock.Expire()
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

// Idle reports that nothing read is waiting: the next Read may block.
func (f *Feeder) Idle() bool { return len(f.cur) == 0 && len(f.ch) == 0 }

// Stop ends the reading ahead.
func (f *Feeder) Stop() { f.once.Do(func() { close(f.done) }) }
