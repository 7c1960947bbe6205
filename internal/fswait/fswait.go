// Package fswait tells whoever waits for files to change that they did,
// without polling: one fsnotify watcher (inotify on Linux, kqueue on the
// BSDs and macOS, ReadDirectoryChangesW on Windows) for the whole
// process, shared by every followed file and every watched folder.
//
//	sub, err := fswait.Default().Watch(dir, "run.jsonl")
//	if err != nil { … poll instead … }
//	defer sub.Close()
//	<-sub.C() // run.jsonl (or the directory entry of that name) changed
//
// A directory is watched, never a file: a file that is replaced (rotated),
// created later or removed shows as an event on its name in its
// directory. Where the system has no watcher, or a directory cannot be
// watched (it does not exist, the watch limit is reached), Watch returns an
// error and the caller polls.
package fswait

import (
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// Hub is one fsnotify watcher and the subscriptions it serves.
type Hub struct {
	mu   sync.Mutex
	w    *fsnotify.Watcher
	err  error // the watcher could not be made
	dirs map[string]*dir
	once sync.Once
}

// dir is one watched directory and who listens to it.
type dir struct {
	subs map[*Sub]struct{}
}

// Sub is a subscription to the changes of one name in a directory, or of
// every entry of it.
type Sub struct {
	h    *Hub
	dir  string
	name string // "" for every entry
	c    chan struct{}

	mu      sync.Mutex
	changed map[string]struct{} // paths changed since Changed (name "")
	lost    bool                // events may have been lost: look at everything
	closed  bool
	gone    bool // the directory went away: nothing more comes
}

var (
	defaultHub  *Hub
	defaultOnce sync.Once
)

// Default is the process's hub, made when first asked for.
func Default() *Hub {
	defaultOnce.Do(func() { defaultHub = New() })
	return defaultHub
}

// New returns a hub; its watcher is made at the first Watch.
func New() *Hub { return &Hub{dirs: map[string]*dir{}} }

// ErrUnavailable is returned by Watch when the system gives no watcher.
var ErrUnavailable = errors.New("file system notifications are not available")

func (h *Hub) start() {
	h.once.Do(func() {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			h.err = errors.Join(ErrUnavailable, err)
			return
		}
		h.w = w
		go h.run(w)
	})
}

// Watch subscribes to changes of name in directory d ("" for every entry
// of d): creation, writes, removal, renaming, a change of mode. The
// directory must exist.
func (h *Hub) Watch(d, name string) (*Sub, error) {
	return h.WatchWith(d, name, make(chan struct{}, 1))
}

// WatchWith is Watch with the channel C gives: several subscriptions may
// share one (make it with a buffer of 1), so that one receive waits for
// all of them.
func (h *Hub) WatchWith(d, name string, c chan struct{}) (*Sub, error) {
	h.start()
	if h.err != nil {
		return nil, h.err
	}
	d = filepath.Clean(d)
	h.mu.Lock()
	defer h.mu.Unlock()
	wd := h.dirs[d]
	if wd == nil {
		if err := h.w.Add(d); err != nil {
			return nil, err
		}
		wd = &dir{subs: map[*Sub]struct{}{}}
		h.dirs[d] = wd
	}
	s := &Sub{h: h, dir: d, name: name, c: c}
	if name == "" {
		s.changed = map[string]struct{}{}
	}
	wd.subs[s] = struct{}{}
	return s, nil
}

// C receives a value when something the subscription covers changed
// since the last receive (changes coalesce into one value).
func (s *Sub) C() <-chan struct{} { return s.c }

// Changed returns the paths of d's entries that changed since the last
// call (a subscription to every entry only), and lost when events may
// have been lost (the system's queue overflowed, or the directory itself
// went away): then everything must be looked at again.
func (s *Sub) Changed() (paths []string, lost bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p := range s.changed {
		paths = append(paths, p)
	}
	clear(s.changed)
	lost, s.lost = s.lost, false
	return paths, lost
}

// Close ends the subscription; the directory is no longer watched once no
// one listens to it.
func (s *Sub) Close() {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	wd := h.dirs[s.dir]
	if wd == nil || s.gone {
		return
	}
	delete(wd.subs, s)
	if len(wd.subs) == 0 {
		delete(h.dirs, s.dir)
		_ = h.w.Remove(s.dir)
	}
}

// wake tells s that path changed (lost: maybe more).
func (s *Sub) wake(path string, lost bool) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if s.changed != nil && path != "" {
		s.changed[path] = struct{}{}
	}
	s.lost = s.lost || lost
	s.mu.Unlock()
	select {
	case s.c <- struct{}{}:
	default:
	}
}

// run hands the watcher's events to the subscriptions.
func (h *Hub) run(w *fsnotify.Watcher) {
	for {
		select {
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			h.dispatch(ev.Name)
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			_ = err // an overflow, or a read error: everyone looks again
			h.wakeAll()
		}
	}
}

func (h *Hub) dispatch(path string) {
	d, name := filepath.Split(path)
	d = filepath.Clean(d)
	h.mu.Lock()
	defer h.mu.Unlock()
	if wd := h.dirs[d]; wd != nil {
		for s := range wd.subs {
			if s.name == "" || s.name == name {
				s.wake(path, false)
			}
		}
	}
	if wd := h.dirs[filepath.Clean(path)]; wd != nil && !exists(path) {
		// The directory itself went away (removed, renamed): its watch
		// is gone with it. Its subscribers are told, and watch again.
		delete(h.dirs, filepath.Clean(path))
		_ = h.w.Remove(path)
		for s := range wd.subs {
			s.mu.Lock()
			s.gone = true
			s.mu.Unlock()
			s.wake("", true)
		}
	}
}

// Gone reports that the directory went away after Watch: nothing more
// comes through s, which is to be closed (and the directory watched
// again, when it is back).
func (s *Sub) Gone() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gone
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func (h *Hub) wakeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, wd := range h.dirs {
		for s := range wd.subs {
			s.wake("", true)
		}
	}
}

// Watching reports how many directories the hub watches (tests).
func (h *Hub) Watching() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.dirs)
}
