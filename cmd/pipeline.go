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
	"syscall"

	"github.com/agentfmt/agentfmt/internal/feed"
	"github.com/agentfmt/agentfmt/internal/follow"
	"github.com/agentfmt/agentfmt/internal/otlp"
	"github.com/agentfmt/agentfmt/internal/pager"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// pipeline is one run of agentfmt over its inputs: one chain, to one
// renderer, for every FILE in turn (or the agent of 'agentfmt run').
type pipeline struct {
	*chain
	gate   *gateWriter
	stderr *lockedWriter
	// stdinUsed: "-" may be read once.
	stdinUsed bool
	// stop is closed when the run ends (followed files stop waiting).
	stop chan struct{}
	// fileErrs counts the FILEs that could not be read (exit 2 at the end).
	fileErrs int
	// worst is the worst status of the FILEs before the last, and why.
	worst       int
	worstReason string
	// opened reports that some input was opened.
	opened bool
	// input names the FILE being read when there are several ("" else);
	// steps are the step summaries of the runs before the last, and
	// unsummarised says that the session's last run is in none yet.
	input        string
	steps        []string
	unsummarised bool
	// empty names the inputs that gave no line ("-" for stdin, "" for
	// the agent of 'run').
	empty []string
	// agent is the child of 'agentfmt run', nil otherwise.
	agent *agentRun
	// pager is the pager stdout goes through, nil for none.
	pager   *pager.Pager
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
	env, stop := pagerSignals(env, pg)
	defer stop()
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
	sum := p.summary(true)
	if c := outcomeCode(sum.Outcome, sum.UntilMissing); rank(c) > rank(p.worst) {
		p.worst, p.worstReason = c, sum.Reason
	}
	p.noteStep(sum)
}

// newPipeline sets up the renderer, the filters, the session and the
// decoder for a run. close releases what it holds.
//
// pg, when not nil, is the pager the output goes through: it is decided
// on the terminal (format, colour, width), and pretty writes no live
// region into it.
func newPipeline(env *Env, o *Options, pg *pager.Pager) (*pipeline, error) {
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
	p := &pipeline{gate: gate, stderr: stderr, stop: make(chan struct{}), pager: pg}
	p.closers = append(p.closers, tuneGC(), func() { close(p.stop) })
	if pg != nil {
		p.closers = append(p.closers, func() { pg.Close() })
	}
	var tee *teeWriter
	if o.Tee != "" {
		f, err := os.Create(o.Tee)
		if err != nil {
			p.close()
			return nil, &exitError{code: ExitUsage, msg: fmt.Sprintf("--tee: %v", err)}
		}
		p.closers = append(p.closers, func() { f.Close() })
		tee = &teeWriter{w: f, stderr: stderr, name: o.Tee}
	}
	t, err := startTracing(env, o)
	if err != nil {
		p.close()
		return nil, err
	}
	var trace *otlp.Trace
	if t != nil {
		trace = t.trace("")
		p.closers = append(p.closers, func() { t.finish(stderr, "the input ended") })
	}
	if p.chain, err = newChain(env, o, format, rend, stderr, "", trace, formatShows[format].edits); err != nil {
		p.close()
		return nil, err
	}
	p.tee = tee
	if format != "text" {
		p.chain.sayUnshown = p.sayUnshown
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
		_ = p.out.Finish(render.Summary{Outcome: streaming.Incomplete, Reason: "internal error"})
		*code, *err = ExitInternal, internalError(r)
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
		f, err := follow.Open(name, p.env.followOptions(p.stop))
		if err != nil {
			return p.fileError(err)
		}
		p.follow = f
		f.Notice = func(msg string) { warnf(p.stderr, "--follow: %s", msg) }
		if f.Absent() {
			// (as tail -F says it: a mistyped name must not wait in silence)
			f.Say(name + " does not exist yet: waiting for it to appear (Ctrl-C stops)")
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
	p.opened = true
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
	err := p.read(feed.New(src, p.tee.write, p.env.Signals))
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

// finish closes the stream and maps what happened to an exit code.
func (p *pipeline) finish(runErr error) (int, error) {
	var intr *errInterrupted
	interrupted := errors.As(runErr, &intr)
	if runErr != nil && !interrupted {
		// Whatever went wrong, the renderer finishes: the live region is
		// finalised and the cursor shown again.
		return p.fail(runErr)
	}
	if !interrupted {
		if err := p.closeInput(); err != nil {
			return p.fail(err)
		}
	} else if err := p.speakUnshown(minUnshown); err != nil && !isClosedPipe(err) {
		return p.fail(err)
	}
	sum := p.summary(!interrupted)
	sum.Interrupted = interrupted
	outcome, reason := sum.Outcome, sum.Reason
	stopped := p.stopped(&sum)
	// The status the stream gives; with 'agentfmt run', when the stream
	// gives none, the agent's own failure.
	code := outcomeCode(outcome, sum.UntilMissing)
	agentFailed := false
	if outcome == streaming.Incomplete && p.agent != nil {
		if c, why := p.agent.proc.Failure(); c != 0 && !interrupted {
			code, sum.Reason, reason, agentFailed = c, why, why, true
			sum.Outcome, sum.NoResult = streaming.Failure, true
		}
	}
	// The worst run's status, when the input held several.
	if !interrupted && rank(p.worst) > rank(code) {
		code, reason, agentFailed = p.worst, p.worstReason, false
	}
	if !p.opened && p.fileErrs > 0 {
		p.gate.discard = true // no input at all: no run footer for a run that never was
	}
	if err := p.out.Finish(sum); err != nil {
		if interrupted { // (a hangup takes the terminal with it)
			return signalCode(intr.Sig), nil
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
	if p.opened {
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
		teeCode = signalCode(intr.Sig)
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

// fail finishes the output of a run that went wrong, and maps what went
// wrong to its exit status.
func (p *pipeline) fail(err error) (int, error) {
	if isClosedPipe(err) {
		return ExitPipe, nil
	}
	_ = p.out.Finish(render.Summary{Outcome: streaming.Incomplete, Reason: err.Error()})
	return exitOf(err, ExitUsage)
}

// isClosedPipe reports a write to a closed stdout (| head).
func isClosedPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrClosed)
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
