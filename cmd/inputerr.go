package cmd

import (
	"errors"
	"io"

	"github.com/agentfmt/agentfmt/internal/follow"
)

// readError is an error reading the input (not rendering it).
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

// fileError reports a FILE that could not be read, on stderr only.
func (p *pipeline) fileError(err error) error {
	p.fileErrs++
	sayFileError(p.stderr, err)
	return nil
}

// sayFileError says on stderr why an input could not be read: the
// message of the error that names the file, once.
func sayFileError(w io.Writer, err error) {
	var ee *exitError
	var fe *follow.Error
	switch {
	case errors.As(err, &ee):
		err = errors.New(ee.msg)
	case errors.As(err, &fe):
		err = fe
	}
	warnf(w, "%v", err)
}

// isDataErr reports a --strict contract violation.
func isDataErr(err error) bool {
	var ce interface{ ExitCode() int }
	return errors.As(err, &ce) && ce.ExitCode() == ExitDataErr
}
