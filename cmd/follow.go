package cmd

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/agentfmt/agentfmt/render"
)

// Polling of a followed file. Tests shorten them.
var (
	// followPoll is how often a followed file is checked for growth.
	followPoll = 150 * time.Millisecond
	// followSettle is how long a followed file must stay unchanged after
	// its last run finished before following ends.
	followSettle = time.Second
)

// openFollow returns the source for FILE under --follow (seed 002): what
// the file holds is read at once (the renderer shows it as it is — the
// compacted state so far — then the live updates), then the file is
// polled for growth like `tail -F`:
//
//   - truncation (the size drops below what was read: copytruncate, or the
//     writer started the file again) reads it again from the top;
//   - rotation (the name now points to another file) drains nothing more
//     from the old one and reads the new one from the top;
//   - a file that does not exist yet is waited for;
//   - a partial last line waits for the rest of its line.
//
// Following ends when interrupted (SIGINT 130, SIGTERM 143, through the
// feeder's signal path), or when the stream's last run has finished — its
// result has been read — and the file has then stayed unchanged for
// followSettle: `agentfmt --follow run.jsonl` watches an agent working in
// the background and returns with its exit status when it is done, even
// when the agent hangs after its result (claude-code#25629). A run that
// never finishes is followed until interrupted. A new run appended in the
// settle time (a loop's next iteration) is followed too; to watch an
// endless loop log, use `tail -F log | agentfmt`.
//
// rend is the pipeline's output (it tells whether the last run ended);
// stop is closed when the pipeline is done, and Close ends a pending read.
func openFollow(name string, stop <-chan struct{}, rend render.Renderer) (io.ReadCloser, error) {
	fl := &follower{name: name, stop: stop, closed: make(chan struct{}), lastData: time.Now(),
		poll: followPoll, settle: followSettle}
	if out, ok := rend.(*output); ok {
		fl.ended = out.runEnded
	}
	f, err := os.Open(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Not written yet: wait for it.
	case err != nil:
		return nil, &exitError{code: ExitUsage, msg: err.Error()}
	default:
		if err := fl.use(f); err != nil {
			f.Close()
			return nil, err
		}
	}
	return fl, nil
}

type follower struct {
	name   string
	stop   <-chan struct{}
	closed chan struct{}
	once   sync.Once
	ended  func() bool
	poll   time.Duration
	settle time.Duration

	mu       sync.Mutex
	f        *os.File
	info     os.FileInfo
	off      int64
	regular  bool
	lastData time.Time
}

// use makes f the file read.
func (fl *follower) use(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return &exitError{code: ExitUsage, msg: err.Error()}
	}
	if info.IsDir() {
		return &exitError{code: ExitUsage, msg: fl.name + ": is a directory"}
	}
	if fl.f != nil {
		fl.f.Close()
	}
	fl.f, fl.info, fl.off = f, info, 0
	fl.regular = info.Mode().IsRegular()
	return nil
}

func (fl *follower) isClosed() bool {
	select {
	case <-fl.closed:
		return true
	default:
		return false
	}
}

// Read returns what the file has beyond what was read, waiting for more.
func (fl *follower) Read(p []byte) (int, error) {
	for {
		n, wait, err := fl.try(p)
		if n > 0 || err != nil {
			return n, err
		}
		if !wait {
			continue // reopened: read again at once
		}
		t := time.NewTimer(fl.poll)
		select {
		case <-fl.stop:
			t.Stop()
			return 0, io.EOF
		case <-fl.closed:
			t.Stop()
			return 0, io.EOF
		case <-t.C:
		}
	}
}

// try reads once; wait reports that there is nothing yet.
func (fl *follower) try(p []byte) (n int, wait bool, err error) {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	if fl.isClosed() {
		return 0, false, io.EOF
	}
	if fl.f == nil {
		f, err := os.Open(fl.name)
		if errors.Is(err, fs.ErrNotExist) {
			return 0, true, nil
		}
		if err != nil {
			return 0, false, err
		}
		if err := fl.use(f); err != nil {
			f.Close()
			return 0, false, err
		}
		fl.lastData = time.Now()
	}
	n, err = fl.f.Read(p)
	if n > 0 {
		fl.off += int64(n)
		fl.lastData = time.Now()
		return n, false, nil
	}
	if err != nil && err != io.EOF {
		return 0, false, err
	}
	if !fl.regular {
		return 0, false, io.EOF // a pipe or device: its EOF is the end
	}
	if fl.reopened() {
		return 0, false, nil // read again at once
	}
	if fl.ended != nil && fl.ended() && time.Since(fl.lastData) >= fl.settle {
		return 0, false, io.EOF
	}
	return 0, true, nil
}

// reopened handles truncation and rotation at the end of the file.
func (fl *follower) reopened() bool {
	st, err := os.Stat(fl.name)
	if err != nil {
		return false // moved away and not yet replaced: keep the old file
	}
	if !os.SameFile(st, fl.info) {
		f, err := os.Open(fl.name)
		if err != nil {
			return false
		}
		if fl.use(f) != nil {
			f.Close()
			return false
		}
		fl.lastData = time.Now()
		return true
	}
	if st.Size() < fl.off {
		if _, err := fl.f.Seek(0, io.SeekStart); err != nil {
			return false
		}
		fl.off = 0
		fl.lastData = time.Now()
		return true
	}
	return false
}

// Close ends following; a Read waiting for growth returns io.EOF.
func (fl *follower) Close() error {
	fl.once.Do(func() { close(fl.closed) })
	fl.mu.Lock()
	defer fl.mu.Unlock()
	if fl.f != nil {
		err := fl.f.Close()
		fl.f = nil
		return err
	}
	return nil
}
