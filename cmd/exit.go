package cmd

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/agentfmt/agentfmt/streaming"
)

// Exit codes (the table of --help: exitHelp).
const (
	ExitOK          = 0
	ExitFailed      = 1                     // the agent reported failure
	ExitUsage       = 2                     // bad flag or value
	ExitIncomplete  = 3                     // the stream ended before the run did
	ExitUntil       = 4                     // --until marker missing from the final answer
	ExitDataErr     = streaming.ExitDataErr // --strict and the input broke the contract
	ExitInterrupted = 130                   // SIGINT
	ExitTerminated  = 143                   // SIGTERM
	ExitHangup      = 129                   // SIGHUP
	ExitQuit        = 131                   // SIGQUIT
	ExitPipe        = 141                   // stdout closed (as a shell reports SIGPIPE)
	ExitInternal    = 70                    // a bug in agentfmt (EX_SOFTWARE)
)

// exitError carries an exit code and an optional message.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// ExitCode returns the code.
func (e *exitError) ExitCode() int { return e.code }

// usageError is a bad flag or value: the one error that shows the usage hint.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// codeOf maps an error to its exit code.
func codeOf(err error) int {
	var u *usageError
	if errors.As(err, &u) {
		return ExitUsage
	}
	var c interface{ ExitCode() int }
	if errors.As(err, &c) {
		return c.ExitCode()
	}
	return ExitUsage
}

// outcomeCode is the exit status of a run's outcome.
func outcomeCode(o streaming.Outcome, untilMissing bool) int {
	switch {
	case o == streaming.Failure:
		return ExitFailed
	case o == streaming.Incomplete:
		return ExitIncomplete
	case untilMissing:
		return ExitUntil
	}
	return ExitOK
}

// rank orders run statuses from best to worst: success, the --until
// marker missing, a run cut off, a run the agent reported failed.
func rank(code int) int {
	switch code {
	case ExitOK:
		return 0
	case ExitUntil:
		return 1
	case ExitIncomplete:
		return 2
	}
	return 3
}

// signalCode is the exit status of a run ended by sig: 128+N, as a shell
// reports a death by signal N (130 for SIGINT, 143 for SIGTERM, 129 for
// SIGHUP, 131 for SIGQUIT).
func signalCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok && s > 0 && s < 64 {
		return 128 + int(s)
	}
	return ExitInterrupted
}
