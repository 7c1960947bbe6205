// Package follow reads a file an agent is still writing, as tail -F
// does: what the file holds at once, then what is appended, through
// truncation and rotation, until the run written in it has ended.
package follow

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentfmt/agentfmt/internal/fswait"
	"github.com/agentfmt/agentfmt/internal/jsonscan"
)

// Options say how a File is followed.
type Options struct {
	// Poll is how often the file is checked for growth where there are
	// no file notifications (Hub nil, or none for its folder); Settle
	// how long it must stay unchanged once its last run has ended;
	// Safety the longest it sleeps when notifications tell it of
	// changes (a change they miss, on a network file system written
	// from another machine, is seen this late).
	Poll, Settle, Safety time.Duration
	// Hub gives the notifications (nil: poll).
	Hub *fswait.Hub
	// Stop is closed when the reading is over (a pending Read returns).
	Stop <-chan struct{}
	// EndsWithRun: following ends once the last run has ended (RunEnded
	// says so) and the file settled (--follow); otherwise (watch) it
	// does not. EndGone ends it when the file is deleted (a session whose
	// file is gone is over); QuietEnd, when set, once the file has not
	// changed for that long (watch --since).
	EndsWithRun bool
	EndGone     bool
	QuietEnd    time.Duration
}

// Error is a file that cannot be followed; its message names the file.
type Error struct{ msg string }

func (e *Error) Error() string { return e.msg }

// Open returns the reader of a file followed (--follow FILE): what the
// file holds is read at once (the renderer shows it as it is — the
// compacted state so far — then the live updates), then the file is
// followed for growth like `tail -F`, woken by the system's file
// notifications (internal/fswait), polling only where there are none:
//
//   - truncation (the size drops below what was read: copytruncate, or the
//     writer started the file again) reads it again from the top;
//   - rotation (the name now points to another file) drains nothing more
//     from the old one and reads the new one from the top;
//   - a file that does not exist yet is waited for;
//   - a partial last line waits for the rest of its line.
//
// Following ends when Stop is closed or the File closed (a signal), or
// when the stream's last run has finished — its result has been read —
// and the file has then stayed unchanged for Settle: `agentfmt --follow
// run.jsonl` watches an agent working in the background and returns with
// its exit status when it is done, even when the agent hangs after its
// result (claude-code#25629). A run that never finishes is followed until
// interrupted. A new run appended in the settle time (a loop's next
// iteration) is followed too; to watch an endless loop log, use
// `tail -F log | agentfmt`.
func Open(name string, o Options) (*File, error) {
	fl := &File{name: name, stop: o.Stop, closed: make(chan struct{}), lastData: time.Now(),
		poll: o.Poll, settle: o.Settle, safety: o.Safety, hub: o.Hub,
		endsWithRun: o.EndsWithRun, endGone: o.EndGone, quietEnd: o.QuietEnd, endWake: make(chan struct{}, 1)}
	fl.watch() // before the first read: no change is missed between them
	f, err := os.Open(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Not written yet: wait for it.
	case err != nil:
		return nil, &Error{msg: err.Error()}
	default:
		if err := fl.use(f); err != nil {
			f.Close()
			return nil, err
		}
	}
	return fl, nil
}

// safetyMax is the longest a File whose file has long been
// quiet sleeps when notifications tell it of changes (see wait).
const safetyMax = 5 * time.Minute

// File is a file followed.
type File struct {
	name   string
	stop   <-chan struct{}
	closed chan struct{}
	once   sync.Once
	// endsWithRun: following ends once ended (the last run has ended)
	// and the file settled; endWake receives when a run ends (the
	// settle time starts). The session tells RunEnded.
	endsWithRun bool
	ended       atomic.Bool
	endWake     chan struct{}
	hub         *fswait.Hub // nil: poll
	sub         *fswait.Sub // the file's name in its directory, when watched
	poll        time.Duration
	settle      time.Duration
	safety      time.Duration
	// Notice, when set, is told what happened to the file (it appeared,
	// was truncated or replaced); set it before the first Read.
	Notice func(msg string)
	// open opens the file behind the name after a rotation (nil:
	// os.Open; tests make it fail).
	open func(name string) (*os.File, error)
	// endGone and quietEnd: see Options.
	endGone  bool
	quietEnd time.Duration

	// mu guards the fields below; it is never held during a read, which
	// may block (a FIFO whose writer is silent): Close must not wait for it.
	mu       sync.Mutex
	f        *os.File
	info     os.FileInfo
	off      int64
	regular  bool
	lastData time.Time
	// changed is when the file last changed: its time of modification
	// when opened, then when data last came.
	changed time.Time
	// missing: the file's name was found to point nowhere.
	missing bool
	// tail is the last line read so far when it has no newline yet (up to
	// maxTail bytes; tailLong when it is longer), and lineOpen that there
	// is one: at a truncation or rotation it is ended before the new
	// file's first line, and when the file stops growing after a complete
	// JSON value, the value is a line.
	tail     []byte
	tailLong bool
	lineOpen bool
	// synthetic: the last Read gave a newline the file does not have
	// (see added): --tee copies the file, not it.
	synthetic bool
	// short: the last read reached the end of what the file holds.
	short bool
	// head is the file's first bytes (up to headLen), to tell a file
	// started again from the one read; lineStart: the next byte read
	// begins a line (its leading NULs are skipped).
	head      []byte
	lineStart bool
	// doc: the file is one JSON document, not lines (a Gemini CLI chat,
	// rewritten whole at every save): it is read as it is, not followed;
	// docSaid: that was said.
	doc, docSaid bool
}

// RunEnded is told by the stream's session when a run ends (true) and
// when another begins: from the goroutine that decodes, while the File
// waits in another.
func (fl *File) RunEnded(ended bool) {
	fl.ended.Store(ended)
	if ended {
		select {
		case fl.endWake <- struct{}{}:
		default:
		}
	}
}

// runOver reports that following may end once the file settles.
func (fl *File) runOver() bool { return fl.endsWithRun && fl.ended.Load() }

// AtEnd reports that what the file holds has been read: the next Read may
// wait (the reading goroutine asks, between its reads).
func (fl *File) AtEnd() bool {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	return fl.short
}

// Added reports that the last Read gave bytes that are not in the file
// (a newline that ends its last line): --tee copies the file, not it.
func (fl *File) Added() bool { return fl.synthetic }

// Absent reports that the file does not exist (yet): it is waited for.
func (fl *File) Absent() bool {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	return fl.f == nil
}

// maxTail is the longest unterminated last line kept to be judged as a
// complete JSON value.
const maxTail = 64 << 20

// use makes f the file read.
func (fl *File) use(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return &Error{msg: err.Error()}
	}
	if info.IsDir() {
		return &Error{msg: fl.name + ": is a directory"}
	}
	if fl.f != nil {
		fl.f.Close()
	}
	fl.f, fl.info, fl.off = f, info, 0
	fl.changed = info.ModTime()
	fl.regular = info.Mode().IsRegular()
	fl.head, fl.lineStart = fl.head[:0], true
	fl.doc = fl.regular && isDocument(f)
	return nil
}

// SkipTo starts reading at off, when the file holds that much (a
// session watch comes back to, after it closed it).
func (fl *File) SkipTo(off int64) {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	if fl.f == nil || fl.info.Size() < off {
		return
	}
	if _, err := fl.f.Seek(off, io.SeekStart); err == nil {
		fl.off = off
	}
}

// Offset is how far the file has been read.
func (fl *File) Offset() int64 {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	return fl.off
}

func (fl *File) isClosed() bool {
	select {
	case <-fl.closed:
		return true
	default:
		return false
	}
}

// Read returns what the file has beyond what was read, waiting for more.
func (fl *File) Read(p []byte) (int, error) {
	for {
		n, wait, err := fl.try(p)
		if n > 0 || err != nil {
			return n, err
		}
		if !wait {
			continue // reopened: read again at once
		}
		if fl.wait() {
			return 0, io.EOF
		}
	}
}

// wait sleeps until the file may have changed: its directory's entry for
// it changed (fswait: inotify and the like), the run was seen to end, or
// a deadline passed — the moment a partial last line is judged, the end
// of the settle time, or fl.safety. Without notifications (the system
// has none, the directory does not exist yet) it polls every fl.poll.
// stopped reports that following is over.
func (fl *File) wait() (stopped bool) {
	if fl.sub == nil || fl.sub.Gone() {
		if fl.sub != nil {
			fl.sub.Close()
			fl.sub = nil
		}
		if fl.watch(); fl.sub != nil {
			return false // look again at once: it may have changed before the watch
		}
	}
	d := fl.poll
	var wake <-chan struct{}
	fl.mu.Lock()
	since, quiet := time.Since(fl.lastData), time.Since(fl.changed)
	lineOpen := fl.lineOpen && !fl.tailLong
	fl.mu.Unlock()
	if fl.sub != nil {
		wake = fl.sub.C()
		// The longer the file stays quiet, the longer the follower
		// sleeps between looks of its own, up to safetyMax: a
		// thousand idle sessions under watch cost nothing.
		d = max(fl.safety, min(quiet/2, safetyMax))
		if lineOpen {
			d = min(d, max(fl.poll*2-since, time.Millisecond))
		}
		if fl.runOver() {
			d = min(d, max(fl.settle-since, time.Millisecond))
		}
	}
	if fl.quietEnd > 0 {
		d = min(d, max(fl.quietEnd-quiet, time.Millisecond))
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-fl.stop:
		return true
	case <-fl.closed:
		return true
	case <-wake:
	case <-fl.endWake:
	case <-t.C:
	}
	return false
}

// watch subscribes to changes of the file's name in its directory.
func (fl *File) watch() {
	if fl.hub == nil {
		return
	}
	if s, err := fl.hub.Watch(filepath.Dir(fl.name), filepath.Base(fl.name)); err == nil {
		fl.sub = s
	}
}

// try reads once; wait reports that there is nothing yet.
func (fl *File) try(p []byte) (n int, wait bool, err error) {
	fl.synthetic = false
	if fl.isClosed() {
		return 0, false, io.EOF
	}
	fl.mu.Lock()
	if fl.f == nil {
		f, err := os.Open(fl.name) // (a FIFO is opened by Open, never here)
		if errors.Is(err, fs.ErrNotExist) {
			fl.mu.Unlock()
			return 0, true, nil
		}
		if err != nil {
			fl.mu.Unlock()
			return 0, false, err
		}
		if err := fl.use(f); err != nil {
			f.Close()
			fl.mu.Unlock()
			return 0, false, err
		}
		fl.lastData = time.Now()
		fl.Say(fl.name + " has appeared: following it")
	}
	if fl.doc && !fl.docSaid {
		fl.docSaid = true
		fl.Say(fl.name + " is one JSON document (a Gemini CLI chat, written whole again at every save), not lines: shown as it is now, not followed")
	}
	if fl.short && fl.regular && fl.restarted() && fl.rewind() {
		// Started again, and maybe written past the old size already:
		// the new run is read from its start.
		fl.Say(fl.name + " was truncated or started again: reading it from the start")
		if fl.lineOpen && len(p) > 0 {
			fl.endLine() // (the old run's partial last line ends here)
			p[0], fl.synthetic = '\n', true
			fl.mu.Unlock()
			return 1, false, nil
		}
	}
	f := fl.f
	fl.mu.Unlock()
	n, err = f.Read(p) // without the lock: it may block on a FIFO
	fl.mu.Lock()
	defer fl.mu.Unlock()
	caughtUp := fl.short // (what is read now was written since)
	fl.short = n < len(p)
	if fl.isClosed() {
		return 0, false, io.EOF
	}
	if n > 0 {
		fl.noteHead(p[:n])
		fl.off += int64(n)
		fl.lastData = time.Now()
		if caughtUp {
			fl.changed = fl.lastData
		}
		if n = fl.skipNULs(p[:n]); n == 0 {
			return 0, false, nil // (a hole: read on at once)
		}
		fl.noteTail(p[:n])
		return n, false, nil
	}
	if err != nil && err != io.EOF {
		return 0, false, err
	}
	if !fl.regular || fl.doc {
		return 0, false, io.EOF // a pipe or device: its EOF is the end
	}
	reopened, err := fl.reopened()
	if err != nil {
		return 0, false, err
	}
	if reopened {
		if fl.lineOpen && len(p) > 0 {
			// The old file's partial last line ends here: the new file
			// starts clean.
			fl.endLine()
			p[0], fl.synthetic = '\n', true
			return 1, false, nil
		}
		return 0, false, nil // read again at once
	}
	if fl.lineOpen && !fl.tailLong && time.Since(fl.lastData) >= fl.poll*2 && len(p) > 0 && jsonscan.Valid(fl.tail) {
		// The file stopped growing after a complete JSON value without a
		// newline (a writer that ends its last line without one): it is
		// a line.
		fl.endLine()
		p[0], fl.synthetic = '\n', true
		return 1, false, nil
	}
	if fl.runOver() && time.Since(fl.lastData) >= fl.settle {
		return 0, false, io.EOF
	}
	if fl.endGone && fl.missing || fl.quietEnd > 0 && time.Since(fl.changed) >= fl.quietEnd {
		return 0, false, io.EOF
	}
	return 0, true, nil
}

// noteTail keeps what follows the last newline of b (the line still open).
func (fl *File) noteTail(b []byte) {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		fl.tail, fl.tailLong, fl.lineOpen = fl.tail[:0], false, false
		b = b[i+1:]
	}
	if len(b) == 0 {
		return
	}
	fl.lineOpen = true
	switch {
	case fl.tailLong:
	case len(fl.tail)+len(b) > maxTail:
		fl.tail, fl.tailLong = nil, true
	default:
		fl.tail = append(fl.tail, b...)
	}
}

func (fl *File) endLine() {
	fl.tail, fl.tailLong, fl.lineOpen = fl.tail[:0], false, false
}

// Say tells Notice msg.
func (fl *File) Say(msg string) {
	if fl.Notice != nil {
		fl.Notice(msg)
	}
}

// Close ends following; a Read waiting for growth, or blocked on a FIFO,
// returns.
func (fl *File) Close() error {
	fl.once.Do(func() { close(fl.closed) })
	if fl.sub != nil {
		fl.sub.Close() // (Read has returned, or returns without it, on closed)
	}
	fl.mu.Lock()
	defer fl.mu.Unlock()
	if fl.f != nil {
		err := fl.f.Close()
		fl.f = nil
		return err
	}
	return nil
}
