// Package watch keeps the table of live agent sessions 'agentfmt watch'
// follows: it finds the sessions that start, or come back to life, in the
// agents' session folders (internal/sessions), woken by the file
// system's notifications (internal/fswait), and hands each to be followed.
package watch

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentfmt/agentfmt/internal/fswait"
	"github.com/agentfmt/agentfmt/internal/sessions"
)

// Config is what is watched and how.
type Config struct {
	// Sessions says where sessions are looked for; Since how recently a
	// live session's file was written.
	Sessions sessions.Options
	Since    time.Duration
	// Now is the clock; Hub gives the notifications (nil: look at
	// everything every Every).
	Now   func() time.Time
	Hub   *fswait.Hub
	Every time.Duration
	// Stop is closed when the watch ends.
	Stop <-chan struct{}
	// Follow is handed each session to follow, and how far its file was
	// read when its stream ended before (0: from its start). It is
	// called from Scan and Run.
	Follow func(s sessions.Session, from int64)
}

// New returns the table of cfg's sessions; Scan fills it.
func New(cfg Config) *Table {
	return &Table{cfg: cfg, so: cfg.Sessions, since: cfg.Since, hub: cfg.Hub, every: cfg.Every, followed: map[string]bool{},
		rejected: map[string]bool{}, closedAt: map[string]int64{}, subs: map[string]*fswait.Sub{}, wake: make(chan struct{}, 1)}
}

// Table finds the sessions that start, or come back to life, while
// watch runs, and keeps which are followed. It watches the folders where session files appear
// (sessions.Places) and looks at each file that changes there and is not
// followed yet (sessions.Find); a new folder, or events lost, make it
// look at everything again. Where the folders cannot be watched it looks
// at everything every Config.Every.
type Table struct {
	cfg   Config
	so    sessions.Options
	since time.Duration
	hub   *fswait.Hub

	// mu guards followed and closedAt: a stream ends in the run's
	// goroutine (Ended).
	mu       sync.Mutex
	followed map[string]bool
	// closedAt is how far the sessions whose streams ended were read:
	// one that comes back to life is shown from there.
	closedAt map[string]int64
	rejected map[string]bool // files that are not sessions of so, for good
	subs     map[string]*fswait.Sub
	wake     chan struct{} // every subscription's
	poll     bool          // a folder could not be watched
	every    time.Duration // how often to look when poll
}

// Run waits for changes until Stop is closed.
func (w *Table) Run() {
	defer w.closeSubs()
	for {
		var tick <-chan time.Time
		var t *time.Timer
		if w.poll {
			t = time.NewTimer(w.every)
			tick = t.C
		}
		select {
		case <-w.cfg.Stop:
		case <-w.wake:
			w.changed()
		case <-tick:
			w.Scan()
		}
		if t != nil {
			t.Stop()
		}
		select {
		case <-w.cfg.Stop:
			return
		default:
		}
	}
}

// changed looks at what changed in the watched folders.
func (w *Table) changed() {
	again := false
	var paths []string
	for _, s := range w.subs {
		p, lost := s.Changed()
		paths = append(paths, p...)
		again = again || lost || s.Gone()
	}
	w.so.Since = w.cfg.Now().Add(-w.since)
	for _, p := range paths {
		if w.isFollowed(p) || w.rejected[p] {
			continue
		}
		st, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if st.IsDir() {
			again = true // a new folder: watch it, and what it holds
			continue
		}
		s, ok, final := sessions.Find(w.so, p)
		switch {
		case ok && !s.Modified.Before(w.so.Since):
			w.follow(s)
		case !ok && final:
			w.rejected[p] = true
		}
	}
	if again {
		w.Scan()
	}
}

// Scan watches the session folders and follows every live session not
// followed yet; it returns how many are followed.
func (w *Table) Scan() int {
	w.watchPlaces()
	w.so.Since = w.cfg.Now().Add(-w.since)
	for _, s := range sessions.List(w.so).Sessions {
		if !w.isFollowed(s.Path) {
			w.follow(s)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.followed)
}

func (w *Table) isFollowed(path string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.followed[path]
}

// Ended is told that the stream of a session ended (its file deleted, or
// quiet for --since): when the session comes back to life, it is
// followed again from where it was left.
func (w *Table) Ended(path string, off int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.followed, path)
	if _, err := os.Stat(path); err != nil {
		delete(w.closedAt, path)
		return
	}
	w.closedAt[path] = off
}

// watchPlaces subscribes to every folder where sessions appear; for one
// that does not exist yet, to the nearest folder above it that does (not
// above the home), whose new entries make it look again.
func (w *Table) watchPlaces() {
	w.poll = w.hub == nil
	if w.hub == nil {
		return
	}
	want := map[string]bool{}
	for _, pl := range sessions.Places(w.so) {
		dirs := pl.Dirs()
		if _, err := os.Stat(pl.Dir); err != nil {
			dirs = []string{w.existingAbove(pl.Dir)}
			if dirs[0] == "" {
				w.poll = true // nothing above it to watch either
			}
		}
		for _, d := range dirs {
			if d != "" {
				want[d] = true
			}
		}
	}
	for d, s := range w.subs {
		if !want[d] || s.Gone() {
			s.Close()
			delete(w.subs, d)
		}
	}
	for d := range want {
		if w.subs[d] != nil {
			continue
		}
		s, err := w.hub.WatchWith(d, "", w.wake)
		if err != nil {
			w.poll = true
			continue
		}
		w.subs[d] = s
	}
}

// existingAbove is the nearest folder above dir that exists, not above
// the home ("" when there is none).
func (w *Table) existingAbove(dir string) string {
	home := filepath.Clean(w.so.Home)
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		if d == home || d == filepath.Dir(d) || (home != "" && !strings.HasPrefix(d, home)) {
			return ""
		}
	}
}

func (w *Table) closeSubs() {
	for d, s := range w.subs {
		s.Close()
		delete(w.subs, d)
	}
}

// follow hands a session to Config.Follow, from where its stream was
// left if it ended before.
func (w *Table) follow(s sessions.Session) {
	w.mu.Lock()
	w.followed[s.Path] = true
	from := w.closedAt[s.Path]
	delete(w.closedAt, s.Path)
	w.mu.Unlock()
	w.cfg.Follow(s, from)
}
