package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentfmt/agentfmt/internal/fswait"
	"github.com/agentfmt/agentfmt/internal/sessions"
	"github.com/agentfmt/agentfmt/render"
	"github.com/spf13/cobra"
)

func newWatch(env *Env, o *Options, code *int) *cobra.Command {
	var all bool
	var since time.Duration
	c := &cobra.Command{
		Use:   "watch",
		Short: "Follow every live agent session of the current directory at once, in one view",
		Long: `Follow every live session of the current directory at once: the Claude Code, Codex and
Gemini CLI session files written in the last --since (10 minutes), and every session that starts
while it runs. --all watches every project. It runs until Ctrl-C (exit 130).

Each session is a stream of its own, tagged with its agent and the first characters of its id
(claude·1a2b, codex·019f). On a terminal each has a lane: a heading (agent, project, session,
running, waiting on a tool, done or failed) with its live block under it, and its finished work
in the scrollback under its tag; a finished session stays as its summary line, and one whose turn
is over shows "waiting for a prompt". A session whose file is deleted, or that has not changed
for --since, is closed to its summary line. Ctrl-C stops the watching, not the sessions: they are
left as they were. -o plain begins
every line with the session's tag (as docker compose logs does); -o json gives every event a
"stream" field. --tee DIR copies each session file, as it is read, to DIR/TAG.jsonl.

Where the sessions are looked for is as for 'agentfmt sessions'; --agent watches one agent's.
Watching sleeps on the file system's notifications (inotify, kqueue, …): idle sessions cost
nothing.`,
		Example: `  agentfmt watch
  agentfmt watch --all --since 1h
  agentfmt watch -o plain | grep codex·`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := o.validate(c); err != nil {
				return err
			}
			if since <= 0 {
				return usagef("--since must be positive (a duration: 10m, 1h)")
			}
			so, err := sessionOptions(env, o)
			if err != nil {
				return err
			}
			so.All = all
			n, err := runWatch(env, o, so, since)
			*code = n
			return err
		},
	}
	c.Flags().BoolVar(&all, "all", false, "watch the sessions of every project, not only the current directory's")
	c.Flags().DurationVar(&since, "since", 10*time.Minute, "a session written this long ago or less is live (a duration: 10m, 1h)")
	return c
}

// runWatch follows the live sessions of so until a signal.
func runWatch(env *Env, o *Options, so sessions.Options, since time.Duration) (int, error) {
	ss, err := newStreamSet(env, o, nil)
	if err != nil {
		return codeOf(err), err
	}
	now := time.Now
	if env.Now != nil {
		now = env.Now
	}
	w := &watcher{ss: ss, so: so, since: since, now: now, hub: env.fileHub(), every: env.watchPoll(), followed: map[string]bool{}, rejected: map[string]bool{},
		closedAt: map[string]int64{}, subs: map[string]*fswait.Sub{}, wake: make(chan struct{}, 1)}
	ss.endGone, ss.quietEnd, ss.onEnd = true, since, w.ended
	n := w.scan()
	if o.Debug || env.isTerminal(env.Stderr) {
		whose := "of " + so.Dir
		if so.All {
			whose = "of every project"
		}
		warnf(ss.stderr, "watching %d live session%s %s, and those that start (Ctrl-C stops)", n, plural(n), whose)
	}
	done := make(chan struct{})
	go func() { defer close(done); w.run() }()
	code, err := ss.wait(true)
	<-done
	return code, err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// watcher finds the sessions that start, or come back to life, while
// watch runs. It watches the folders where session files appear
// (sessions.Places) and looks at each file that changes there and is not
// followed yet (sessions.Find); a new folder, or events lost, make it
// look at everything again. Where the folders cannot be watched it looks
// at everything every env.WatchPoll.
type watcher struct {
	ss    *streamSet
	so    sessions.Options
	since time.Duration
	now   func() time.Time
	hub   *fswait.Hub

	// mu guards followed and closedAt: a stream ends in the run's
	// goroutine (ended).
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

// run waits for changes until the watch ends.
func (w *watcher) run() {
	defer w.closeSubs()
	for {
		var tick <-chan time.Time
		var t *time.Timer
		if w.poll {
			t = time.NewTimer(w.every)
			tick = t.C
		}
		select {
		case <-w.ss.stop:
		case <-w.wake:
			w.changed()
		case <-tick:
			w.scan()
		}
		if t != nil {
			t.Stop()
		}
		select {
		case <-w.ss.stop:
			return
		default:
		}
	}
}

// changed looks at what changed in the watched folders.
func (w *watcher) changed() {
	again := false
	var paths []string
	for _, s := range w.subs {
		p, lost := s.Changed()
		paths = append(paths, p...)
		again = again || lost || s.Gone()
	}
	w.so.Since = w.now().Add(-w.since)
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
		w.scan()
	}
}

// scan watches the session folders and follows every live session not
// followed yet; it returns how many are followed.
func (w *watcher) scan() int {
	w.watchPlaces()
	w.so.Since = w.now().Add(-w.since)
	for _, s := range sessions.List(w.so).Sessions {
		if !w.isFollowed(s.Path) {
			w.follow(s)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.followed)
}

func (w *watcher) isFollowed(path string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.followed[path]
}

// ended is told that the stream of a session ended (its file deleted, or
// quiet for --since): when the session comes back to life, it is
// followed again from where it was left.
func (w *watcher) ended(path string, off int64) {
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
func (w *watcher) watchPlaces() {
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
func (w *watcher) existingAbove(dir string) string {
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

func (w *watcher) closeSubs() {
	for d, s := range w.subs {
		s.Close()
		delete(w.subs, d)
	}
}

// follow adds a session as a stream. A Gemini CLI chat saved as one JSON
// document is rewritten whole on every change: it cannot be followed.
func (w *watcher) follow(s sessions.Session) {
	w.mu.Lock()
	w.followed[s.Path] = true
	from := w.closedAt[s.Path]
	delete(w.closedAt, s.Path)
	w.mu.Unlock()
	if s.Agent == sessions.Gemini && strings.HasSuffix(s.Path, ".json") {
		warnf(w.ss.stderr, "%s is a Gemini CLI chat saved as one JSON document, rewritten whole on every change: not watched (Gemini CLI 0.39 and later append lines)",
			tildePath(w.so.Home, s.Path))
		return
	}
	id := s.ID
	if id == "" {
		id = strings.TrimSuffix(filepath.Base(s.Path), filepath.Ext(s.Path))
	}
	short := id
	if r := []rune(id); len(r) > 4 {
		short = string(r[:4])
	}
	project := s.Cwd
	if project == "" {
		project = w.so.Dir
	}
	lane := render.Lane{Tag: s.Agent + "·" + short, Agent: s.Agent, Project: filepath.Base(project), Session: id, Saved: true}
	if err := w.ss.add(s.Path, lane, s.Agent+"·"+id, false, from); err != nil {
		warnf(w.ss.stderr, "%v", err)
	}
}
