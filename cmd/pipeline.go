// This file is the format pipeline: one run of agentfmt over its inputs,
// from the decoder through the session to the renderer, and the exit status
// it ends with. What the pipeline is set up with (format, colour, width, CI)
// is decided in decide.go.

package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"syscall"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// pipeline is one run of agentfmt over its inputs.
type pipeline struct {
	env    *Env
	o      *Options
	format string
	rend   render.Renderer
	out    *output
	gate   *gateWriter
	stderr *lockedWriter
	sess   *streaming.Session
	dec    *parsers.Decoder
	tee    *teeWriter
	// stdinUsed: "-" may be read once.
	stdinUsed bool
	// untilMissing reports whether the final answer lacks the --until marker.
	untilMissing func(answer string) bool
	// stop is closed when the run ends (followed files stop waiting).
	stop chan struct{}
	// fileErrs counts the FILEs that could not be read (exit 2 at the end).
	fileErrs int
	// worst is the worst status of the FILEs before the last, and why.
	worst       int
	worstReason string
	// read reports that some input was opened.
	read bool
	// input names the FILE being read when there are several ("" else);
	// steps are the step summaries of the runs before the last, and
	// unsummarised says that the session's last run is in none yet.
	input        string
	steps        []string
	unsummarised bool
	// lines is how many lines the last source gave; empty names the
	// inputs that gave none ("-" for stdin, "" for the agent of 'run').
	lines int
	empty []string
	// follow is the file followed (--follow), which its agent writes on
	// its own: a signal stops only the reading. The session tells it when
	// a run ends.
	follow *follower
	// agent is the child of 'agentfmt run', nil otherwise.
	agent *agentRun
	// pager is the pager stdout goes through, nil for none.
	pager   *pager
	closers []func()
}

// runFormat renders the inputs and returns the exit code.
func runFormat(ctx context.Context, env *Env, o *Options, files []string) (code int, err error) {
	if o.Follow && len(files) > 1 {
		return followAll(env, o, files)
	}
	if err := checkTee(o.Tee, files, env.Stdin); err != nil {
		return ExitUsage, err
	}
	pg := pagerFor(env, o, files)
	if pg != nil && env.Signals != nil {
		// While the pager runs, a Ctrl-C is the pager's (less stops a
		// search with it), not the end of agentfmt.
		penv := *env
		sig, stop := make(chan os.Signal, 2), make(chan struct{})
		defer close(stop)
		go func() {
			for {
				select {
				case s := <-env.Signals:
					if s != os.Interrupt || !pg.paging() {
						sig <- s
					}
				case <-stop:
					return
				}
			}
		}()
		penv.Signals = sig
		env = &penv
	}
	p, err := newPipeline(env, o, pg)
	if err != nil {
		return codeOf(err), err
	}
	defer p.close()
	defer p.guard(&code, &err)
	p.hintTerminal(files)
	if len(files) == 0 {
		files = []string{"-"}
	}
	var runErr error
	for i, name := range files {
		errs := p.fileErrs
		if len(files) > 1 {
			p.input = name
		}
		if runErr = p.readFile(name); runErr != nil {
			if p.tee != nil && isOutputError(runErr) {
				p.drainFiles(files[i+1:])
			}
			break
		}
		p.unsummarised = p.fileErrs == errs
		if i < len(files)-1 && p.fileErrs == errs {
			p.noteFile()
		}
	}
	return p.finish(runErr)
}

// noteFile records the status of the last run of a FILE that is not the
// last one: with several FILEs the exit status is the worst one's, and
// the step summary says every one.
func (p *pipeline) noteFile() {
	outcome, reason := p.sess.Outcome()
	sum := render.Summary{Outcome: outcome, Reason: reason, Answer: p.finalAnswer()}
	if p.o.Until != "" && outcome == streaming.Success {
		sum.UntilMissing = p.untilMissing(sum.Answer)
	}
	if c := outcomeCode(outcome, sum.UntilMissing); rank(c) > rank(p.worst) {
		p.worst, p.worstReason = c, reason
	}
	p.noteStep(sum)
}

// newPipeline sets up the renderer, the filters, the session and the
// decoder for a run. close releases what it holds.
//
// pg, when not nil, is the pager the output goes through: it is decided
// on the terminal (format, colour, width), and pretty writes no live
// region into it.
func newPipeline(env *Env, o *Options, pg *pager) (*pipeline, error) {
	format, cfg := decide(env, o)
	gate := &gateWriter{w: outWriter{env.Stdout}}
	if pg != nil {
		gate.w = pg
		cfg.Static, cfg.TermSize, cfg.Resize = true, nil, nil
	}
	rend, err := render.New(format, gate, cfg)
	if err != nil {
		return nil, usagef("%v", err)
	}
	growPipe(env.Stdout)
	stderr := &lockedWriter{w: env.Stderr}
	p := &pipeline{env: env, o: o, format: format, gate: gate, stderr: stderr, stop: make(chan struct{}), pager: pg}
	p.closers = append(p.closers, tuneGC(), func() { close(p.stop) })
	if pg != nil {
		p.closers = append(p.closers, func() { pg.Close() })
	}
	if o.Tee != "" {
		f, err := os.Create(o.Tee)
		if err != nil {
			p.close()
			return nil, &exitError{code: ExitUsage, msg: fmt.Sprintf("--tee: %v", err)}
		}
		p.closers = append(p.closers, func() { f.Close() })
		p.tee = &teeWriter{w: f, stderr: stderr, name: o.Tee}
	}
	var report func(int, string)
	if o.Debug {
		report = func(line int, msg string) {
			if line > 0 {
				warnf(stderr, "line %d: %s", line, msg)
			} else {
				warnf(stderr, "%s", msg)
			}
		}
	}
	out, untilMissing := wrapOutput(rend, format, o)
	p.rend, p.out, p.untilMissing = out, out, untilMissing
	out.trim = format == "text"
	if err := p.traceOutput(); err != nil {
		p.close()
		return nil, err
	}
	p.sess = streaming.NewSession(out, streaming.Options{Strict: o.Strict, Report: report, RunEnded: func(ended bool) {
		if p.follow != nil {
			p.follow.runEnded(ended)
		}
	}})
	p.dec, err = parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{Force: o.Agent, Strict: o.Strict, Report: report,
		NoEdits: !formatShows[format].edits && p.out.trace == nil, Scribble: env.Scribble}, p.sess)
	if err != nil {
		p.close()
		return nil, usagef("%v", err)
	}
	return p, nil
}

// close releases what the pipeline holds, last first.
func (p *pipeline) close() {
	for i := len(p.closers) - 1; i >= 0; i-- {
		p.closers[i]()
	}
	p.closers = nil
}

// guard turns a panic into exit 70: a bug must not leave the terminal in
// a bad state or lose the cause, so the output is finished and the panic
// reported as an internal error. It is deferred by the command.
func (p *pipeline) guard(code *int, err *error) {
	if r := recover(); r != nil {
		_ = p.rend.Finish(render.Summary{Outcome: streaming.Incomplete, Reason: "internal error"})
		*code, *err = ExitInternal, &exitError{code: ExitInternal,
			msg: fmt.Sprintf("internal error: %v (please report it, with the input; stack in %s)", r, saveStack(debug.Stack()))}
	}
}

// readFile renders one input. A FILE that cannot be opened or read is
// reported on stderr and counted, and the next one is read (exit 2 at the
// end, as jq does): no error comes back for it.
func (p *pipeline) readFile(name string) error {
	var src io.Reader
	if name == "-" {
		if p.stdinUsed {
			return nil
		}
		p.stdinUsed = true
		src = p.env.Stdin
		if src == nil {
			src = eofReader{}
		}
	} else if p.o.Follow {
		f, err := openFollow(p.env, name, p.stop, true)
		if err != nil {
			return p.fileError(err)
		}
		p.follow = f
		f.notice = func(msg string) { warnf(p.stderr, "--follow: %s", msg) }
		if f.f == nil {
			// (as tail -F says it: a mistyped name must not wait in silence)
			f.say(name + " does not exist yet: waiting for it to appear (Ctrl-C stops)")
		}
		defer f.Close()
		src = f
	} else {
		f, err := os.Open(name)
		if err != nil {
			return p.fileError(err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return p.fileError(fmt.Errorf("%s: is a directory", name))
		}
		src = f
	}
	p.read = true
	if p.input != "" {
		// One of several: a heading names it (pretty, plain, markdown).
		heading := name
		if name == "-" && p.format != "json" { // (json says the FILE as given)
			heading = "standard input"
		}
		if err := p.out.heading(heading); err != nil {
			return err
		}
	}
	err := p.readSource(newSource(src, p.tee, p.env.Signals))
	if p.lines == 0 && err == nil {
		p.empty = append(p.empty, name)
	}
	var intr *errInterrupted
	if name != "-" && err != nil && !errors.As(err, &intr) && !isClosedPipe(err) && !isDataErr(err) {
		var rerr *readError
		if errors.As(err, &rerr) {
			return p.fileError(fmt.Errorf("%s: %w", name, rerr.err))
		}
	}
	return err
}

// readSource decodes and renders what feed gives, to its end.
func (p *pipeline) readSource(feed source) error {
	defer feed.stop()
	r := input.NewReader(feed, int(min(p.o.MaxLine, int64(^uint(0)>>1))))
	p.lines = 0
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			var intr *errInterrupted
			if errors.As(err, &intr) {
				return err
			}
			p.lines++
			return &readError{err: err}
		}
		p.lines++
		if err := p.dec.Decode(l); err != nil {
			return p.drain(feed, err)
		}
		// (idle first: it is cheap, and a file or a fast stream is never
		// idle, while Buffered looks for a line end in what is read.)
		if feed.idle() && r.Buffered() == 0 {
			if f, ok := p.rend.(render.Flusher); ok {
				if err := f.Flush(); err != nil {
					return p.drain(feed, err)
				}
			}
		}
	}
}

// drain keeps reading the input to its end once stdout is closed (| head)
// or fails (a full disk) when --tee is given, so the tee file gets all of
// it and the writer upstream (the agent) never sees a broken pipe; err is
// returned after. A signal ends it.
func (p *pipeline) drain(feed source, err error) error {
	if p.tee == nil || !isClosedPipe(err) && !isOutputError(err) {
		return err
	}
	if f, ok := feed.(*feeder); ok && f.onSide != nil {
		// The agent's stderr ('agentfmt run') has nowhere to go on a
		// closed stdout: it must not end the draining.
		show := f.onSide
		f.onSide = func(l string) error { _ = show(l); return nil }
	}
	buf := make([]byte, 64<<10)
	for {
		_, rerr := feed.Read(buf) // (the source copies what it reads to the tee file)
		var intr *errInterrupted
		if errors.As(rerr, &intr) {
			return rerr
		}
		if rerr != nil {
			return err
		}
	}
}

// finish closes the stream and maps what happened to an exit code.
func (p *pipeline) finish(runErr error) (int, error) {
	var intr *errInterrupted
	interrupted := errors.As(runErr, &intr)
	if runErr != nil && !interrupted {
		if isClosedPipe(runErr) {
			return ExitPipe, nil
		}
		var ce interface{ ExitCode() int }
		if errors.As(runErr, &ce) && ce.ExitCode() == ExitDataErr {
			_ = p.rend.Finish(render.Summary{Outcome: streaming.Incomplete, Reason: runErr.Error()})
			return ExitDataErr, &exitError{code: ExitDataErr, msg: runErr.Error()}
		}
		// Whatever went wrong, the renderer finishes: the live region is
		// finalised and the cursor shown again.
		_ = p.rend.Finish(render.Summary{Outcome: streaming.Incomplete, Reason: runErr.Error()})
		if ee, ok := runErr.(*exitError); ok {
			return ee.code, ee
		}
		if isOutputError(runErr) {
			return ioExit(runErr)
		}
		return ExitUsage, runErr
	}
	if !interrupted {
		if err := p.closeInput(); err != nil {
			return p.fail(err)
		}
		if err := p.sess.Close(); err != nil {
			return p.fail(err)
		}
	}
	outcome, reason := p.sess.Outcome()
	sum := render.Summary{Outcome: outcome, Reason: reason, Answer: p.finalAnswer(), Stats: p.sess.Stats(), Interrupted: interrupted}
	stopped := p.stopped(&sum)
	if p.o.Until != "" && !interrupted && outcome == streaming.Success {
		sum.UntilMissing = p.untilMissing(sum.Answer)
	}
	// The status the stream gives; with 'agentfmt run', when the stream
	// gives none, the agent's own failure.
	code := outcomeCode(outcome, sum.UntilMissing)
	agentFailed := false
	if outcome == streaming.Incomplete && p.agent != nil {
		if c, why := p.agent.failure(); c != 0 && !interrupted {
			code, sum.Reason, reason, agentFailed = c, why, why, true
			sum.Outcome, sum.NoResult = streaming.Failure, true
		}
	}
	// The worst run's status, when the input held several.
	if !interrupted && rank(p.worst) > rank(code) {
		code, reason, agentFailed = p.worst, p.worstReason, false
	}
	if !p.read && p.fileErrs > 0 {
		p.gate.discard = true // no input at all: no run footer for a run that never was
	}
	if err := p.rend.Finish(sum); err != nil {
		if interrupted { // (a hangup takes the terminal with it)
			return signalCode(intr.sig), nil
		}
		if isClosedPipe(err) || isOutputError(err) {
			return ioExit(err)
		}
		return ExitUsage, err
	}
	if p.pager != nil {
		// The output first (what the pager held back, or the pager read to
		// its end), then what is said on stderr.
		if err := p.pager.Close(); err != nil {
			return ioExit(err)
		}
	}
	if p.read {
		if p.unsummarised || p.agent != nil {
			p.noteStep(sum)
		}
		if err := writeStepSummary(p.env, p.o, p.steps); err != nil {
			warnf(p.stderr, "--summary: %v", err)
		}
		p.hintNoJSON()
		p.hintEmpty(agentFailed)
		p.hintForced()
	}
	p.sayStopped(stopped)
	teeCode := ExitIOErr // (a --tee copy cut short; a signal's status wins)
	if interrupted {
		teeCode = signalCode(intr.sig)
	}
	if err := p.tee.finish(teeCode); err != nil || interrupted {
		return teeCode, err
	}
	if p.fileErrs > 0 {
		return ExitUsage, nil
	}
	p.explain(code, reason, agentFailed)
	return code, nil
}

func (p *pipeline) fail(err error) (int, error) {
	if isClosedPipe(err) {
		return ExitPipe, nil
	}
	_ = p.rend.Finish(render.Summary{Outcome: streaming.Incomplete, Reason: err.Error()})
	if isOutputError(err) {
		return ioExit(err)
	}
	var ce interface{ ExitCode() int }
	if errors.As(err, &ce) {
		return ce.ExitCode(), &exitError{code: ce.ExitCode(), msg: err.Error()}
	}
	return ExitUsage, err
}

// isClosedPipe reports a write to a closed stdout (| head).
func isClosedPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrClosed)
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
