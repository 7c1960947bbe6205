package cmd

import (
	"errors"
	"fmt"
	"slices"

	"github.com/agentfmt/agentfmt/internal/follow"
	"github.com/agentfmt/agentfmt/internal/otlp"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// stream is one of several streams: a followed file, its chain, and its
// lane of the view.
type stream struct {
	*chain
	set     *streamSet
	name    string // the file
	tag     string
	lane    render.Renderer
	closers []func()
	// err is what ended the reading other than the end of the input.
	err error
}

// add follows the file path as one more stream, in a lane described by
// lane (its Tag made unique: longTag is how far it may grow), and starts
// reading it from offset from (a session watch closed, come back to
// life: what it showed is not shown again). endWithRun: the stream ends
// when its run has ended and the file settled (--follow); otherwise
// (watch) with the whole run, or when its file is gone or quiet.
func (ss *streamSet) add(path string, lane render.Lane, longTag string, endWithRun bool, from int64) error {
	ss.mu.Lock()
	closing := ss.closing
	ss.mu.Unlock()
	if closing {
		return nil
	}
	fo := ss.env.followOptions(ss.stop)
	fo.EndsWithRun, fo.EndGone, fo.QuietEnd = endWithRun, ss.endGone, ss.quietEnd
	src, err := follow.Open(path, fo)
	if err != nil {
		ss.fileError(err)
		return nil
	}
	if from > 0 {
		src.SkipTo(from)
	}
	lane.Tag = ss.uniqueTag(lane.Tag, longTag)
	s := &stream{set: ss, name: path, tag: lane.Tag}
	s.closers = append(s.closers, func() { src.Close() })
	var tee *teeWriter
	if ss.teeDir != "" {
		t, closeTee, err := ss.teeFile(lane.Tag, path)
		if err != nil {
			s.close()
			return err
		}
		tee = t
		s.closers = append(s.closers, closeTee)
	}
	s.lane = ss.view.Lane(lane)
	var trace *otlp.Trace
	if ss.tracing != nil {
		trace = ss.tracing.trace(lane.Tag)
	}
	if s.chain, err = newChain(ss.env, ss.o, ss.format, s.lane, ss.stderr, s.tag, trace, formatShows[ss.format].laneEdits); err != nil {
		s.close()
		return err
	}
	s.tee, s.follow = tee, src
	src.Notice = ss.noticer(s)
	say := src.Notice
	s.sayUnshown = func(msg string) error { say(msg); return nil }
	if src.Absent() {
		src.Say(path + " does not exist yet: waiting for it to appear (Ctrl-C stops)")
	}
	ss.mu.Lock()
	if ss.closing {
		ss.mu.Unlock()
		s.close()
		return nil
	}
	ss.streams = append(ss.streams, s)
	ss.reading++
	ss.mu.Unlock()
	go s.run()
	return nil
}

// noticer is where a stream's follower says what happened to its file
// (it appeared, was truncated, replaced). On a terminal the pretty view
// owns, a line written to stderr would land inside the live region (in a
// heading, leaving rows of it behind): the notice goes to the stream's
// lane instead, which shows it above the live region on a line of its
// own, as the session's own notices. The follower calls it from the
// goroutine that reads the stream, the only one that feeds the lane.
func (ss *streamSet) noticer(s *stream) func(string) {
	if ss.format == "pretty" && ss.env.isTerminal(ss.env.Stderr) {
		return func(msg string) {
			ev := streaming.Event{Kind: streaming.KindNotice, Text: msg}
			_ = s.lane.Handle(&ev) // (an output error ends the stream at its next event)
		}
	}
	return func(msg string) { warnf(ss.stderr, "--follow %s: %s", s.tag, msg) }
}

// fileError reports an input that could not be read (exit 2 at the end).
func (ss *streamSet) fileError(err error) {
	ss.mu.Lock()
	ss.fileErrs++
	ss.mu.Unlock()
	sayFileError(ss.stderr, err)
}

func (s *stream) close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}

// run reads and decodes the stream to its end, in its own goroutine,
// and hands the stream to the set. Its lane is flushed whenever the file
// has nothing more to give.
func (s *stream) run() {
	defer func() {
		if r := recover(); r != nil {
			s.err = internalError(r)
		}
		s.set.ended <- s
	}()
	s.err = s.read(&followSource{fl: s.follow, tee: s.tee})
}

// fatal reports that the stream's end ends the whole run: the output
// failed, --strict was broken, agentfmt itself failed.
func (s *stream) fatal() bool {
	return s.err != nil && (isClosedPipe(s.err) || isOutputError(s.err) || isDataErr(s.err) || codeOf(s.err) == ExitInternal)
}

// finishStream ends a stream whose reading ended: closes its session,
// finishes its lane (its summary line), and counts its status. A stream
// cut by an interruption is shown interrupted when its run was still
// going.
func (ss *streamSet) finishStream(s *stream, interrupted bool) {
	ss.mu.Lock()
	ss.reading--
	// Let go of it: under watch, sessions come and go for hours.
	ss.streams = slices.DeleteFunc(ss.streams, func(o *stream) bool { return o == s })
	delete(ss.tags, s.tag)
	ss.mu.Unlock()
	defer s.close()
	if ss.onEnd != nil && !interrupted {
		defer ss.onEnd(s.name, s.follow.Offset())
	}
	err := s.err
	var rerr *readError
	if errors.As(err, &rerr) {
		ss.fileError(fmt.Errorf("%s: %w", s.name, rerr.err))
		err = nil
	}
	switch {
	case err == nil && !interrupted:
		err = s.closeInput()
	case err == nil:
		err = s.speakUnshown(minUnshown)
	}
	// A signal stops the reading, not the agent, which writes its file on
	// its own: its run is left as it was.
	sum := s.summary(true)
	outcome := sum.Outcome
	sum.Stopped = interrupted && outcome == streaming.Incomplete
	if sum.Stopped {
		ss.mu.Lock()
		ss.stopped++
		ss.mu.Unlock()
	}
	if err != nil && !isClosedPipe(err) && !isOutputError(err) {
		sum.Outcome, sum.Reason = streaming.Incomplete, err.Error()
	}
	if ferr := s.out.Finish(sum); err == nil {
		err = ferr
	}
	if err != nil {
		ss.mu.Lock()
		if ss.failure == nil || isClosedPipe(ss.failure) {
			ss.failure = err
		}
		ss.mu.Unlock()
		return
	}
	if interrupted {
		return
	}
	if code := outcomeCode(outcome, sum.UntilMissing); rank(code) > rank(ss.worst) {
		ss.worst = code
	}
	step := s.step(sum, s.name)
	ss.mu.Lock()
	werr := writeStepSummary(ss.env, ss.o, []string{step})
	ss.mu.Unlock()
	if werr != nil {
		warnf(ss.stderr, "--summary: %v", werr)
	}
}
