package cmd

import (
	"os"
	"strings"

	"github.com/agentfmt/agentfmt/internal/pager"
)

// The pager (--pager): a replayed FILE or --latest, or the
// sessions table, longer than the screen goes through $AGENTFMT_PAGER
// (the --pager flag's variable: a command where it is not auto or never),
// else $PAGER, else less -FRX, as bat, glow and gh do (internal/pager).
// Only on a terminal, and never for a live stream (stdin, --follow, run,
// demo): a pager shows nothing until it has a screenful, and reading
// ahead is its job, not a live view's.

// pagerFor returns the pager for a run over files, or nil when the output
// goes to stdout as it is.
func pagerFor(env *Env, o *Options, files []string) *pager.Pager {
	if o.Follow || len(files) == 0 {
		return nil
	}
	for _, f := range files {
		if f == "-" {
			return nil
		}
		if st, err := os.Stat(f); err == nil && !st.Mode().IsRegular() {
			return nil // a FIFO, a device: maybe a live stream
		}
	}
	return newPager(env, o)
}

// newPager returns stdout through the pager, for output that is all there
// when it is written (a replayed FILE, the sessions table), or nil when
// stdout is no terminal or no pager is set.
func newPager(env *Env, o *Options) *pager.Pager {
	if o.Pager == "never" || !env.isTerminal(env.Stdout) || env.getenv("TERM") == "dumb" {
		return nil
	}
	width, height, ok := termSize(env, env.Stdout)
	if !ok || height < 2 {
		return nil
	}
	command := pagerCommand(env, o)
	if command == "" {
		return nil
	}
	environ := os.Environ()
	if env.Environ != nil {
		environ = env.Environ()
	}
	return pager.New(pager.Config{Command: command, Stdout: env.Stdout, Direct: outWriter{env.Stdout}, Stderr: env.Stderr,
		Warn: func(format string, args ...any) { warnf(env.Stderr, format, args...) }, Environ: environ, Getenv: env.getenv,
		Width: width, Height: height})
}

// pagerCommand is the pager to run: --pager COMMAND (AGENTFMT_PAGER),
// $PAGER, less -FRX when less is installed; "" for none (cat is none, as
// git has it).
func pagerCommand(env *Env, o *Options) string {
	command := ""
	switch {
	case o.Pager != "auto" && o.Pager != "":
		command = o.Pager
	case env.getenv("PAGER") != "":
		command = env.getenv("PAGER")
	default:
		if _, err := lookPath(env, "less"); err != nil {
			return ""
		}
		command = "less -FRX"
	}
	if strings.TrimSpace(command) == "cat" {
		return ""
	}
	return command
}

// pagerSignals is env with its signals through a filter: while the pager
// runs, a Ctrl-C is the pager's (less stops a search with it), not the
// end of agentfmt. stop ends the filtering.
func pagerSignals(env *Env, pg *pager.Pager) (penv *Env, stop func()) {
	if pg == nil || env.Signals == nil {
		return env, func() {}
	}
	e := *env
	sig, done := make(chan os.Signal, 2), make(chan struct{})
	go func() {
		for {
			select {
			case s := <-env.Signals:
				if s != os.Interrupt || !pg.Paging() {
					sig <- s
				}
			case <-done:
				return
			}
		}
	}()
	e.Signals = sig
	return &e, func() { close(done) }
}
