package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/agentfmt/agentfmt/internal/feed"
)

// ExitIOErr is a write error on the output other than a closed pipe: a full
// disk, a device error (EX_IOERR).
const ExitIOErr = 74

// outputError is an error writing the rendered output.
type outputError struct{ err error }

func (e *outputError) Error() string { return "writing output: " + e.err.Error() }
func (e *outputError) Unwrap() error { return e.err }

// ExitCode is 74, or 141 for a closed pipe (| head).
func (e *outputError) ExitCode() int {
	if isClosedPipe(e.err) {
		return ExitPipe
	}
	return ExitIOErr
}

// outWriter marks the errors of the output, so that they are told apart
// from usage and data errors.
type outWriter struct{ w io.Writer }

func (o outWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		err = &outputError{err}
	}
	return n, err
}

// isOutputError reports an error writing the output.
func isOutputError(err error) bool {
	var oe *outputError
	return errors.As(err, &oe)
}

// checkTee refuses a --tee file that is one of the inputs (it would be
// truncated before it is read), before anything is opened for writing.
func checkTee(tee string, files []string, stdin io.Reader) error {
	if tee == "" {
		return nil
	}
	st, err := os.Stat(tee)
	if err != nil {
		return nil // a new file: no input can be it
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		var in os.FileInfo
		if name == "-" {
			if f, ok := stdin.(*os.File); ok {
				in, _ = f.Stat()
			}
		} else {
			in, _ = os.Stat(name)
		}
		if in != nil && os.SameFile(st, in) {
			return usagef("--tee %s is also an input (%s): it would be emptied before it is read", tee, name)
		}
	}
	return nil
}

// drain reads what is left of src when the output failed, so that --tee
// still gets the whole input (and the producer no SIGPIPE); a signal ends it.
func drain(src io.Reader) error {
	_, err := io.Copy(io.Discard, src)
	return err
}

// drainFiles reads the inputs not yet read, for --tee, after the output
// failed.
func (p *pipeline) drainFiles(files []string) {
	for _, name := range files {
		var src io.Reader
		switch {
		case name == "-":
			if p.stdinUsed || p.env.Stdin == nil {
				continue
			}
			p.stdinUsed = true
			src = p.env.Stdin
		default:
			f, err := os.Open(name)
			if err != nil {
				continue
			}
			defer f.Close()
			src = f
		}
		in := feed.New(src, p.tee.write, p.env.Signals)
		err := drain(in)
		in.Stop()
		if err != nil {
			return
		}
	}
}

// ioExit maps an output error to its exit status and message.
func ioExit(err error) (int, error) {
	if isClosedPipe(err) {
		return ExitPipe, nil
	}
	return ExitIOErr, &exitError{code: ExitIOErr, msg: fmt.Sprint(err)}
}

// finish closes the --tee file and reports a copy cut short (a full disk,
// a write or close error): an error with the exit status code (74, or a
// signal's), saying how much of the input the file holds. A copy that
// looks whole but is not must not end in 0.
func (t *teeWriter) finish(code int) error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.w.(io.Closer); ok && t.err == nil {
		if err := c.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
			t.err = err
		}
	}
	if t.err == nil {
		return nil
	}
	t.failed = true
	return &exitError{code: code, msg: fmt.Sprintf("--tee %s: the copy is incomplete, it holds the first %s of the input: %v",
		t.name, byteCount(t.copied), pathless(t.err))}
}

// byteCount writes n bytes for a person: "0 bytes", "65536 bytes (64 KiB)".
func byteCount(n int64) string {
	if n < 1<<10 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d bytes (%s)", n, binarySize(n))
}

// pathless is err without the path an *os.PathError repeats.
func pathless(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
