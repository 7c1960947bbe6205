// This file is the chain every stream goes through, alone (pipeline.go)
// or one of several (stream.go): decoder → session → the filters of the
// flags (output.go) → renderer; how it reads its input, and how its last
// run ended.

package cmd

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/agentfmt/agentfmt/internal/feed"
	"github.com/agentfmt/agentfmt/internal/follow"
	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/otlp"
	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// chain is one stream's way from its input to its renderer.
type chain struct {
	env    *Env
	o      *Options
	format string
	out    *output
	sess   *streaming.Session
	dec    *parsers.Decoder
	// untilMissing reports whether a final answer (as the session holds
	// it, the marker in it) lacks --until's marker.
	untilMissing func(answer string) bool
	// tee is the --tee copy of the input (nil: none).
	tee *teeWriter
	// follow is the file followed (--follow), which its agent writes on
	// its own; the session tells it when a run ends (nil: none).
	follow *follow.File
	// lines counts the lines of the input read last.
	lines int
	// sayUnshown says that most of the stream could not be shown, where
	// the stream's reader sees it (nil: the format says it otherwise);
	// unshownSaid: it was said, once for the stream.
	sayUnshown  func(msg string) error
	unshownSaid bool
}

// newChain builds the chain to rend. tag names the stream among several
// in --debug's reports ("" for one); trace is its --otlp trace (nil:
// none); edits: rend shows file edits, which the decoder then derives.
func newChain(env *Env, o *Options, format string, rend render.Renderer, stderr io.Writer, tag string, trace *otlp.Trace, edits bool) (*chain, error) {
	c := &chain{env: env, o: o, format: format}
	c.out, c.untilMissing = wrapOutput(rend, format, o)
	c.out.trace = trace
	var report func(int, string)
	if o.Debug {
		if tag != "" {
			tag += ": "
		}
		report = func(line int, msg string) {
			if line > 0 {
				warnf(stderr, "%sline %d: %s", tag, line, msg)
			} else {
				warnf(stderr, "%s%s", tag, msg)
			}
		}
	}
	c.sess = streaming.NewSession(c.out, streaming.Options{Strict: o.Strict, Report: report, RunEnded: c.runEnded})
	var err error
	c.dec, err = parsers.NewDecoder(all.Agents(), parsers.DecoderOptions{Force: o.Agent, Strict: o.Strict, Report: report,
		NoEdits: !edits && trace == nil, Scribble: env.Scribble}, c.sess)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return c, nil
}

// runEnded is the session telling that a run ended, or another began.
func (c *chain) runEnded(ended bool) {
	if c.follow != nil {
		c.follow.RunEnded(ended)
	}
}

// read decodes and renders what src gives, to its end. The renderer is
// flushed whenever the input has nothing more to give.
func (c *chain) read(src feed.Source) error {
	defer src.Stop()
	r := input.NewReader(src, int(min(c.o.MaxLine, int64(^uint(0)>>1))))
	c.lines = 0
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
			c.lines++
			return &readError{err: err}
		}
		c.lines++
		if err := c.dec.Decode(l); err != nil {
			return c.drain(src, err)
		}
		// (idle first: it is cheap, and a file or a fast stream is never
		// idle, while Buffered looks for a line end in what is read.)
		if src.Idle() && r.Buffered() == 0 {
			if err := c.speakUnshown(minIdleUnshown); err != nil {
				return c.drain(src, err)
			}
			if err := c.out.Flush(); err != nil {
				return c.drain(src, err)
			}
		}
	}
}

// drain keeps reading the input to its end once stdout is closed (| head)
// or fails (a full disk) when --tee is given, so the tee file gets all of
// it and the writer upstream (the agent) never sees a broken pipe; err is
// returned after. A signal ends it.
func (c *chain) drain(src feed.Source, err error) error {
	if c.tee == nil || !isClosedPipe(err) && !isOutputError(err) {
		return err
	}
	if f, ok := src.(*feed.Feeder); ok && f.OnSide != nil {
		// The agent's stderr ('agentfmt run') has nowhere to go on a
		// closed stdout: it must not end the draining.
		show := f.OnSide
		f.OnSide = func(l string) error { _ = show(l); return nil }
	}
	buf := make([]byte, 64<<10)
	for {
		_, rerr := src.Read(buf) // (the source copies what it reads to the tee file)
		var intr *errInterrupted
		if errors.As(rerr, &intr) {
			return rerr
		}
		if rerr != nil {
			return err
		}
	}
}

// closeInput ends the input: the decoder hands over what its parser
// holds, what could not be shown is spoken of, and the session closes
// what is still open.
func (c *chain) closeInput() error {
	if err := c.dec.Close(); err != nil {
		return err
	}
	if err := c.speakUnshown(minUnshown); err != nil {
		return err
	}
	return c.sess.Close()
}

// summary is how the stream's last run ended, for its renderer: the
// outcome, the final answer where something reads it, and, when until,
// whether it lacks --until's marker.
func (c *chain) summary(until bool) render.Summary {
	outcome, reason := c.sess.Outcome()
	sum := render.Summary{Outcome: outcome, Reason: reason, Answer: c.finalAnswer(), Stats: c.sess.Stats()}
	if until && c.o.Until != "" && outcome == streaming.Success {
		sum.UntilMissing = c.untilMissing(sum.Answer)
	}
	return sum
}

// finalAnswer is the session's final answer where something reads it: the
// renderer (-o text), --until, the step summary. Joined, it is a copy of
// what can be megabytes of text the session holds in pieces.
func (c *chain) finalAnswer() string {
	if path, _ := stepSummaryPath(c.env, c.o); !formatShows[c.format].answer && c.o.Until == "" && path == "" {
		return ""
	}
	return c.sess.FinalAnswer()
}

// step is the job summary's part for the last run, which ended as sum
// says; input names the stream among several ("" for one).
func (c *chain) step(sum render.Summary, input string) string {
	return render.StepSummary(c.sess.Run(), sum, c.out.shown(sum.Answer), c.o.Until, input)
}

// internalError is a panic as the command reports it (exit 70): a bug
// must not lose its cause, and the report on stderr stays one line.
func internalError(r any) *exitError {
	return &exitError{code: ExitInternal,
		msg: fmt.Sprintf("internal error: %v (please report it, with the input; stack in %s)", r, saveStack(debug.Stack()))}
}

// exitOf maps what ended a run early to its exit status: a closed stdout
// 141, another output error 74, an error that carries its status that
// status, anything else otherwise.
func exitOf(err error, otherwise int) (int, error) {
	if isClosedPipe(err) {
		return ExitPipe, nil
	}
	if isOutputError(err) {
		return ioExit(err)
	}
	var ce interface{ ExitCode() int }
	if errors.As(err, &ce) {
		return ce.ExitCode(), &exitError{code: ce.ExitCode(), msg: err.Error()}
	}
	return otherwise, err
}

// followSource reads a file followed as one of several streams, and
// copies what it reads to the stream's --tee file (not the newlines the
// File adds to end a last line).
type followSource struct {
	fl  *follow.File
	tee *teeWriter
}

func (s *followSource) Read(p []byte) (int, error) {
	n, err := s.fl.Read(p)
	if n > 0 && !s.fl.Added() {
		s.tee.write(p[:n])
	}
	return n, err
}

// Idle reports that the file has nothing more to give for now.
func (s *followSource) Idle() bool { return s.fl.AtEnd() }

func (s *followSource) Stop() {}
