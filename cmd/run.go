package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"syscall"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/parsers"
	"github.com/agentfmt/agentfmt/parsers/all"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// pipeline is one run of agentfmt over its inputs.
type pipeline struct {
	env  *Env
	o    *Options
	rend render.Renderer
	sess *streaming.Session
	dec  *parsers.Decoder
	tee  *teeWriter
	// stdinUsed: "-" may be read once.
	stdinUsed bool
	// untilMissing reports whether the final answer lacks the --until marker.
	untilMissing func(answer string) bool
	// stop is closed when the run ends (followed files stop waiting).
	stop chan struct{}
}

// decide works out the format, colour, width and CI flavour from the flags
// and the environment, once.
func decide(env *Env, o *Options) (string, render.Config) {
	out := env.Stdout
	tty := env.isTerminal(out)
	format := o.Format
	if format == "" {
		format = "plain"
		if tty && env.getenv("TERM") != "dumb" {
			format = "pretty"
		}
	}
	cfg := render.Config{
		Palette:    render.NewPalette(colorOn(env, o.Color, tty)),
		Thinking:   render.ThinkingMode(o.Thinking),
		Tools:      render.ToolsMode(o.Tools),
		ToolLines:  o.ToolLines,
		AllowColor: o.AllowColor,
		Timestamps: o.Timestamps,
		Sentences:  o.Sentences,
		Until:      o.Until,
		CI:         ciOf(env, o.CI),
		Now:        env.Now,
		Terminal:   tty,
		Tick:       env.Tick,
	}
	cfg.Width = o.Width
	if w, h, ok := termSize(env, out); ok {
		if cfg.Width == 0 {
			cfg.Width = w
		}
		cfg.Height = h
	}
	if cfg.Width == 0 {
		if n, err := strconv.Atoi(env.getenv("COLUMNS")); err == nil && n > 0 {
			cfg.Width = n
		}
	}
	if cfg.Width == 0 {
		cfg.Width = 100
	}
	if tty && env.TermSize != nil && o.Width == 0 {
		cfg.TermSize = func() (int, int, bool) { return env.TermSize(out) }
		cfg.Resize = env.Resize
	}
	return format, cfg
}

func termSize(env *Env, w io.Writer) (int, int, bool) {
	if env.TermSize == nil {
		return 0, 0, false
	}
	return env.TermSize(w)
}

// colorOn is DESIGN §2's order: the flag; NO_COLOR, CLICOLOR=0, TERM=dumb
// off; CLICOLOR_FORCE, FORCE_COLOR on; else whether the output is a terminal.
func colorOn(env *Env, flag string, tty bool) bool {
	switch flag {
	case "always":
		return true
	case "never":
		return false
	}
	if env.getenv("NO_COLOR") != "" || env.getenv("CLICOLOR") == "0" || env.getenv("TERM") == "dumb" {
		return false
	}
	for _, k := range []string{"CLICOLOR_FORCE", "FORCE_COLOR"} {
		if v := env.getenv(k); v != "" && v != "0" {
			return true
		}
	}
	return tty
}

func ciOf(env *Env, flag string) render.CI {
	switch flag {
	case "github":
		return render.CIGitHub
	case "gitlab":
		return render.CIGitLab
	case "none":
		return render.CINone
	}
	if env.getenv("GITHUB_ACTIONS") == "true" {
		return render.CIGitHub
	}
	if env.getenv("GITLAB_CI") == "true" {
		return render.CIGitLab
	}
	return render.CINone
}

// runFormat renders the inputs and returns the exit code.
func runFormat(ctx context.Context, env *Env, o *Options, files []string) (code int, err error) {
	var rend render.Renderer
	defer func() {
		// A bug must not leave the terminal in a bad state or lose the
		// cause: finish the output and report the panic as an internal error.
		if r := recover(); r != nil {
			if rend != nil {
				_ = rend.Finish(render.Summary{Outcome: streaming.Incomplete, Reason: "internal error"})
			}
			code, err = ExitInternal, &exitError{code: ExitInternal,
				msg: fmt.Sprintf("internal error: %v (please report it, with the input; stack in %s)", r, saveStack(debug.Stack()))}
		}
	}()
	format, cfg := decide(env, o)
	if err := checkTee(o.Tee, files, env.Stdin); err != nil {
		return ExitUsage, err
	}
	rend, err = render.New(format, outWriter{env.Stdout}, cfg)
	if err != nil {
		return ExitUsage, usagef("%v", err)
	}
	defer tuneGC()()
	growPipe(env.Stdout)
	stderr := &lockedWriter{w: env.Stderr}
	p := &pipeline{env: env, o: o, rend: rend, stop: make(chan struct{})}
	defer close(p.stop)
	if o.Tee != "" {
		f, err := os.Create(o.Tee)
		if err != nil {
			return ExitUsage, fmt.Errorf("--tee: %w", err)
		}
		defer f.Close()
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
	out, untilMissing := wrapOutput(rend, o)
	p.rend, p.untilMissing = out, untilMissing
	// The decoder lends the text of each line to the session, which
	// copies what it keeps past the line when the decoder settles it.
	p.sess = streaming.NewSession(out, streaming.Options{Strict: o.Strict, Report: report,
		Lent: func(s string) bool { return p.dec.Lent(s) }})
	p.dec, err = parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{Force: o.Agent, Strict: o.Strict, Report: report,
		Settle: p.sess.Settle, Scribble: env.Scribble}, p.sess.Push)
	if err != nil {
		return ExitUsage, usagef("%v", err)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var runErr error
	for i, name := range files {
		if runErr = p.readFile(name); runErr != nil {
			if p.tee != nil && isOutputError(runErr) {
				p.drainFiles(files[i+1:])
			}
			break
		}
	}
	return p.finish(runErr)
}

// errInterrupted is returned by the input when a signal arrives.
type errInterrupted struct{ sig os.Signal }

func (e *errInterrupted) Error() string { return "interrupted" }

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
		f, err := openFollow(name, p.stop, p.rend)
		if err != nil {
			return err
		}
		if fl, ok := f.(*follower); ok {
			fl.notice = func(msg string) { warnf(p.env.Stderr, "--follow: %s", msg) }
		}
		defer f.Close()
		src = f
	} else {
		f, err := os.Open(name)
		if err != nil {
			return &exitError{code: ExitUsage, msg: err.Error()}
		}
		defer f.Close()
		src = f
	}
	feed := newSource(src, p.tee, p.env.Signals)
	defer feed.stop()
	r := input.NewReader(feed, int(min(p.o.MaxLine, int64(^uint(0)>>1))))
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := p.dec.Decode(l); err != nil {
			if p.tee != nil && isOutputError(err) {
				_ = drain(feed)
			}
			return err
		}
		// (idle first: it is cheap, and a file or a fast stream is never
		// idle, while Buffered looks for a line end in what is read.)
		if feed.idle() && r.Buffered() == 0 {
			if f, ok := p.rend.(render.Flusher); ok {
				if err := f.Flush(); err != nil {
					if p.tee != nil && isOutputError(err) {
						_ = drain(feed)
					}
					return err
				}
			}
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
		if err := p.dec.Close(); err != nil {
			return p.fail(err)
		}
		if err := p.sess.Close(); err != nil {
			return p.fail(err)
		}
	}
	outcome, reason := p.sess.Outcome()
	sum := render.Summary{Outcome: outcome, Reason: reason, Answer: p.sess.FinalAnswer(), Stats: p.sess.Stats(), Interrupted: interrupted}
	if p.o.Until != "" && !interrupted && outcome == streaming.Success {
		sum.UntilMissing = p.untilMissing(sum.Answer)
	}
	if err := p.rend.Finish(sum); err != nil {
		if isClosedPipe(err) || isOutputError(err) {
			return ioExit(err)
		}
		return ExitUsage, err
	}
	if err := writeStepSummary(p.env, p.o, sum, p.rend); err != nil {
		warnf(p.env.Stderr, "--summary: %v", err)
	}
	switch {
	case interrupted:
		if intr.sig == syscall.SIGTERM {
			return ExitTerminated, nil
		}
		return ExitInterrupted, nil
	case outcome == streaming.Failure:
		return ExitFailed, nil
	case outcome == streaming.Incomplete:
		return ExitIncomplete, nil
	case sum.UntilMissing:
		return ExitUntil, nil
	}
	return ExitOK, nil
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
