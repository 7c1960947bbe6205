// This file is a run of agentfmt over several streams at once: --follow
// FILE FILE… and watch (README, "Several agents at once"). One stream is
// stream.go.

package cmd

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/agentfmt/agentfmt/render"
)

// streamSet is a run over several streams. Each stream has its own
// decoder, session and filters, so the streaming contract, --until and
// --sentences hold per stream, and its own goroutine that reads and
// decodes it, so one slow or silent log never holds another back; the
// events meet in one render.View, which gives each stream a lane. The
// run's goroutine only waits: for a stream to end, a signal, or (watch)
// a new stream.
type streamSet struct {
	env    *Env
	o      *Options
	format string
	view   render.View
	stderr *lockedWriter
	// stop is closed when the run ends: followers stop waiting.
	stop chan struct{}
	// ended receives each stream whose reading ended.
	ended chan *stream
	// teeDir is --tee with several streams: a directory, a file per
	// stream.
	teeDir string
	// inputs are the files read, for --tee: no tee file may be one.
	inputs []string
	// Under watch, a stream ends when its file is deleted or has been
	// quiet for quietEnd, and onEnd is told (the stream's file and how
	// far it was read) once its lane is finished.
	endGone  bool
	quietEnd time.Duration
	onEnd    func(path string, off int64)

	mu      sync.Mutex
	streams []*stream
	tags    map[string]bool
	reading int  // streams whose goroutine runs
	closing bool // stop is closed: no stream is added
	// stopped counts the streams whose run was going on when a signal
	// stopped the reading.
	stopped int
	// worst is the worst status of the runs that ended, and fileErrs
	// counts the inputs that could not be read (exit 2).
	worst    int
	fileErrs int
	// failure is what ended the whole run early: an output error, a
	// --strict violation, an internal error.
	failure error
	// tracing is --otlp (nil without): a trace per stream.
	tracing *tracing

	closers []func()
}

// newStreamSet sets up the view. inputs are the files known to be read
// (checked against --tee).
func newStreamSet(env *Env, o *Options, inputs []string) (*streamSet, error) {
	format, cfg := decide(env, o)
	view, err := render.NewView(format, outWriter{env.Stdout}, cfg)
	if err != nil {
		return nil, usagef("%v", err)
	}
	growPipe(env.Stdout)
	ss := &streamSet{env: env, o: o, format: format, view: view, stderr: &lockedWriter{w: env.Stderr},
		stop: make(chan struct{}), ended: make(chan *stream), tags: map[string]bool{}, inputs: inputs}
	ss.closers = append(ss.closers, tuneGC(), noSoftLimit())
	if ss.tracing, err = startTracing(env, o); err != nil {
		ss.close()
		return nil, err
	}
	if ss.tracing != nil {
		ss.closers = append(ss.closers, func() { ss.tracing.finish(ss.stderr, "the input ended") })
	}
	if o.Tee != "" {
		if err := ss.teeDirectory(); err != nil {
			ss.close()
			return nil, err
		}
	}
	return ss, nil
}

// teeDirectory makes --tee DIR ready: with several streams, --tee names a
// directory (made if missing) that gets a copy of each stream's input,
// as <tag>.jsonl.
func (ss *streamSet) teeDirectory() error {
	dir := ss.o.Tee
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return usagef("--tee %s: with several streams --tee names a directory (a copy of each stream goes in it, as TAG.jsonl)", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &exitError{code: ExitUsage, msg: fmt.Sprintf("--tee: %v", err)}
	}
	ss.teeDir = dir
	return nil
}

// teeFile creates the copy of a stream's input in the --tee directory. It
// is never one of the inputs.
func (ss *streamSet) teeFile(tag, input string) (*teeWriter, func(), error) {
	name := filepath.Join(ss.teeDir, fileSafe(tag)+".jsonl")
	if st, err := os.Stat(name); err == nil {
		for _, in := range append([]string{input}, ss.inputs...) {
			if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
				return nil, nil, usagef("--tee %s would write %s, which is an input", ss.teeDir, name)
			}
		}
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, nil, &exitError{code: ExitUsage, msg: fmt.Sprintf("--tee: %v", err)}
	}
	return &teeWriter{w: f, stderr: ss.stderr, name: name}, func() { f.Close() }, nil
}

// fileSafe makes a tag a file name: no separators, no controls, not
// hidden.
func fileSafe(tag string) string {
	s := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' || r == ':' {
			return '_'
		}
		return r
	}, tag)
	if s == "" || s[0] == '.' {
		s = "_" + s
	}
	return s
}

// uniqueTag returns tag, or tag made unique among the set's: for a tag
// of the form agent·id, more of the id (the caller gives the long id in
// longer), else a number.
func (ss *streamSet) uniqueTag(tag, longer string) string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	t := tag
	for n := len(tag); ss.tags[t] && n < len(longer); {
		n++
		t = longer[:n]
	}
	for i := 2; ss.tags[t]; i++ {
		t = fmt.Sprintf("%s#%d", tag, i)
	}
	ss.tags[t] = true
	return t
}

// noSoftLimit lifts the soft memory limit tuneGC set, for a run over
// several streams: their live heap grows with their number (a watch of
// two thousand sessions holds more than the limit), and past the limit
// every wake-up of an idle stream would be a collection. GOGC alone
// bounds the heap to a few times what is live. GOMEMLIMIT in the
// environment wins.
func noSoftLimit() (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := debug.SetMemoryLimit(math.MaxInt64)
	return func() { debug.SetMemoryLimit(limit) }
}

func (ss *streamSet) close() {
	for i := len(ss.closers) - 1; i >= 0; i-- {
		ss.closers[i]()
	}
	ss.closers = nil
}

// cancel ends the run: every stream stops reading.
func (ss *streamSet) cancel() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if !ss.closing {
		ss.closing = true
		close(ss.stop)
		for _, s := range ss.streams {
			s.follow.Close()
		}
	}
}

// wait runs until every stream has ended (keepOpen: until a signal, for
// watch), finishing each stream as it ends, and returns the exit status.
func (ss *streamSet) wait(keepOpen bool) (int, error) {
	defer ss.close()
	var sig os.Signal
	for {
		ss.mu.Lock()
		done := ss.reading == 0 && (!keepOpen || ss.closing)
		ss.mu.Unlock()
		if done {
			break
		}
		select {
		case s := <-ss.ended:
			ss.finishStream(s, sig != nil)
			if s.fatal() {
				ss.cancel()
			}
		case got := <-ss.env.Signals:
			if sig == nil {
				sig = got
				ss.cancel()
			}
		}
	}
	interrupted := sig != nil
	err := ss.view.Finish(interrupted)
	if interrupted && err == nil && ss.stopped > 0 {
		what := "following stopped; the sessions are left as they were"
		if ss.onEnd != nil {
			what = "watching stopped; the sessions are left as they were"
		}
		warnf(ss.stderr, "%s", what)
	}
	switch {
	case ss.failure != nil:
		return ss.failed(ss.failure)
	case err != nil:
		return ss.failed(err)
	case interrupted:
		return signalCode(sig), nil
	case ss.fileErrs > 0:
		return ExitUsage, nil
	}
	return ss.worst, nil
}

// failed maps what ended the run early to its exit status.
func (ss *streamSet) failed(err error) (int, error) {
	code, e := exitOf(err, ExitInternal)
	if e == err {
		e = &exitError{code: code, msg: err.Error()}
	}
	return code, e
}

// followAll follows several FILEs at once (--follow FILE FILE…), each in
// its lane, until every stream's run has ended (the worst run's status) or
// a signal comes (130, 143).
func followAll(env *Env, o *Options, files []string) (int, error) {
	for _, f := range files {
		if f == "-" {
			return ExitUsage, usagef("--follow with several FILEs follows files: stdin (-) cannot be one of them")
		}
	}
	ss, err := newStreamSet(env, o, files)
	if err != nil {
		return codeOf(err), err
	}
	tags, long := fileTags(files)
	for i, name := range files {
		if err := ss.add(name, render.Lane{Tag: tags[i]}, long[i], true, 0); err != nil {
			ss.cancel()
			_, _ = ss.wait(false)
			return codeOf(err), err
		}
	}
	return ss.wait(false)
}

// fileTags names followed files for their lanes: the file's name without
// its extension (run.jsonl is run), with its directory when two names are
// the same (a/run, b/run), its first 12 characters when it is longer (a
// Claude transcript's UUID), as many more as it takes to tell two apart
// (long).
func fileTags(files []string) (tags, long []string) {
	tags, long = make([]string, len(files)), make([]string, len(files))
	count := map[string]int{}
	for i, f := range files {
		long[i] = strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		count[long[i]]++
	}
	for i, f := range files {
		if count[long[i]] > 1 {
			if d := filepath.Base(filepath.Dir(f)); d != "." && d != string(filepath.Separator) {
				long[i] = d + "/" + long[i]
			}
		}
		tags[i] = long[i]
		if r := []rune(long[i]); len(r) > 16 {
			tags[i] = string(r[:12])
		}
	}
	return tags, long
}
