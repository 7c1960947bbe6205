package cmd

import (
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentfmt/agentfmt/internal/agentproc"
	"github.com/agentfmt/agentfmt/internal/otlp"
	"github.com/mattn/go-isatty"
	"golang.org/x/term"
)

// Env is everything the command takes from the process: streams,
// environment, terminal queries and signals. Tests build one by hand and run
// the whole command in-process.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// IsTerminal reports whether w is a terminal.
	IsTerminal func(w io.Writer) bool
	// TermSize returns the width and height of w when it is a terminal.
	TermSize func(w io.Writer) (width, height int, ok bool)
	// Signals delivers the signals that end a run: SIGINT, SIGTERM,
	// SIGHUP (the terminal closed, the ssh connection dropped) and SIGQUIT
	// (nil: none).
	Signals <-chan os.Signal
	// Resize delivers terminal size changes (SIGWINCH; nil: none).
	Resize <-chan os.Signal
	// Now and Tick, when set, replace the clock and the live renderer's
	// redraw timer (tests make pretty output deterministic with them).
	Now  func() time.Time
	Tick <-chan time.Time
	// Environ is the environment of a child process ('agentfmt run'); nil:
	// the process's own.
	Environ func() []string
	// Getwd returns the current directory (nil: the process's).
	Getwd func() (string, error)
	// Foreground reports that agentfmt runs in the foreground process
	// group of its terminal, so that a Ctrl-C there reaches the agent
	// without agentfmt passing it on (nil: it does not).
	Foreground func() bool
	// Scribble overwrites the memory each input line was decoded in once
	// the line is rendered (tests: anything kept of a line without a copy
	// shows up as garbage instead of by chance).
	Scribble bool
	// OTLP, when set, changes the --otlp exporter's set-up (tests: the
	// SDK's in-memory exporter, a shorter flush bound).
	OTLP func(*otlp.Config)

	// Waits, each zero for its default (tests shorten them; see waits.go).
	//
	// FollowPoll is how often a followed file is checked for growth where
	// there are no file notifications.
	FollowPoll time.Duration
	// FollowSettle is how long a followed file must stay unchanged after
	// its last run finished before following ends.
	FollowSettle time.Duration
	// FollowSafety is the longest a follower sleeps when notifications
	// tell it of changes: a change they miss (a file on a network file
	// system written from another machine) is seen this late.
	FollowSafety time.Duration
	// WatchPoll is how often watch looks at the session folders where
	// they cannot be watched.
	WatchPoll time.Duration
	// DrainGrace is how long 'agentfmt run' goes on waiting for the
	// agent's output once the agent has exited.
	DrainGrace time.Duration
	// StdinDelay is how long 'agentfmt run' waits, after the agent's exit,
	// for the copying of a stdin that is not a file (exec.Cmd.WaitDelay).
	StdinDelay time.Duration
	// PartialWait is how long, in plain output of several streams, a
	// stream's unfinished line waits for its end before it is shown
	// (renderenv.Env.PartialWait).
	PartialWait time.Duration
	// PollFiles makes --follow and watch poll instead of waiting on the
	// system's file notifications.
	PollFiles bool
}

// endSignals are the signals that end a run, each handled as SIGTERM is:
// passed on to the agent of 'agentfmt run' and waited for, the terminal
// restored, exit 128+N. Left to Go's default, SIGHUP would end agentfmt at
// once with the agent running on unattended in its own process group, and
// SIGQUIT would do the same after a goroutine dump.
var endSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// OSEnv is the environment of the running process.
func OSEnv() *Env {
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, endSignals...)
	catchSIGPIPE()
	return &Env{
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		Getenv:     os.Getenv,
		IsTerminal: fileIsTerminal,
		TermSize:   fileTermSize,
		Signals:    sig,
		Resize:     resizeSignals(),
		Environ:    os.Environ,
		Foreground: agentproc.Foreground,
	}
}

func fileIsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

func fileTermSize(w io.Writer) (int, int, bool) {
	f, ok := w.(*os.File)
	if !ok {
		return 0, 0, false
	}
	width, height, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 0 {
		return 0, 0, false
	}
	return width, height, true
}

func (e *Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

func (e *Env) isTerminal(w io.Writer) bool {
	return e.IsTerminal != nil && e.IsTerminal(w)
}
