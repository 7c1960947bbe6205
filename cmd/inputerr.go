package cmd

import "errors"

// readError is an error reading the input (not rendering it).
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

// fileError reports a FILE that could not be read, on stderr only.
func (p *pipeline) fileError(err error) error {
	p.fileErrs++
	var ee *exitError
	if errors.As(err, &ee) {
		err = errors.New(ee.msg)
	}
	warnf(p.stderr, "%v", err)
	return nil
}

// isDataErr reports a --strict contract violation.
func isDataErr(err error) bool {
	var ce interface{ ExitCode() int }
	return errors.As(err, &ce) && ce.ExitCode() == ExitDataErr
}
