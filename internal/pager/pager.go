// Package pager shows output longer than the screen through a pager (less
// -FRX, $PAGER, --pager COMMAND), as bat, glow and gh do: output is held
// back until it is a screenful, so that a short one is written to the
// terminal as it is and never starts a pager.
package pager

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/execpath"
)

// Config is the pager to run and the terminal it shows on.
type Config struct {
	// Command is the pager (a command line: run directly when it is
	// words, through sh -c when it has shell syntax).
	Command string
	// Stdout is the terminal (the pager's own stdout); Direct is the
	// same as the output is written to it without a pager (write errors
	// marked as the caller's output errors). Stderr is the pager's, and
	// Warn says there what went wrong.
	Stdout, Direct, Stderr io.Writer
	Warn                   func(format string, args ...any)
	// Environ is the pager's environment; Getenv the caller's (LESS and
	// LV, when set, are left to the user).
	Environ []string
	Getenv  func(string) string
	// Width and Height are the terminal's, in cells.
	Width, Height int
}

// New returns the output through the pager of cfg.
func New(cfg Config) *Pager {
	cfg.Width = max(cfg.Width, 1)
	return &Pager{cfg: cfg}
}

// Pager is stdout through a pager. What is written is held until it fills
// the screen (then the pager starts and gets it) or the output ends (then
// it goes to the terminal as it is). Once the pager quits (q before the
// end), what is written is dropped: the input is still read to its end,
// so that the exit status is the run's. A pager that fails (not found, a
// bad option: it quits with a failure status) has shown nothing: what it
// was given is kept, up to keepLimit, and goes to stdout with the rest.
type Pager struct {
	cfg Config

	mu      sync.Mutex
	held    []byte
	rows    int  // rows the held output takes on the screen
	col     int  // cells on its last row
	inEsc   bool // in an escape sequence (no cells)
	started bool
	done    bool
	gone    bool // the pager quit
	cmd     *exec.Cmd
	in      io.WriteCloser
	err     error // writing to stdout (no pager) failed
	// given is what the pager was given, while it is under keepLimit
	// (nil past it: too much to write again).
	given []byte
}

// keepLimit is how much of the output given to the pager is kept, to be
// written to stdout when the pager fails.
const keepLimit = 8 << 20

func (pg *Pager) Write(b []byte) (int, error) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	switch {
	case pg.done:
		return 0, os.ErrClosed
	case pg.gone:
		return len(b), nil
	case pg.started && pg.cmd == nil: // (no pager: stdout)
		return pg.in.Write(b)
	case pg.started:
		pg.keep(b)
		if _, err := pg.in.Write(b); err != nil && !pg.failed() {
			pg.gone = true // (q: the rest is not wanted)
			return len(b), nil
		}
		return len(b), pg.err
	}
	pg.held = append(pg.held, b...)
	if pg.count(b) {
		pg.start()
	}
	return len(b), pg.err
}

// keep adds b to what the pager was given, while there is room.
func (pg *Pager) keep(b []byte) {
	if pg.cmd == nil || pg.given == nil {
		return
	}
	if len(pg.given)+len(b) > keepLimit {
		pg.given = nil
		return
	}
	pg.given = append(pg.given, b...)
}

// count adds the screen rows of b and reports that the output no longer
// fits above the prompt. Wide characters count as one cell: the pager
// starts a little late at worst.
func (pg *Pager) count(b []byte) bool {
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case pg.inEsc:
			if c >= 0x40 && c <= 0x7e && c != '[' {
				pg.inEsc = false
			}
			continue
		case c == 0x1b:
			pg.inEsc = true
			continue
		case c == '\n':
			pg.rows++
			pg.col = 0
		case c == '\r':
			pg.col = 0
		case c < 0x20 || !utf8.RuneStart(c):
		default:
			if pg.col++; pg.col > pg.cfg.Width {
				pg.rows++
				pg.col = 1
			}
		}
		if pg.rows >= pg.cfg.Height-1 {
			return true
		}
	}
	return false
}

// start runs the pager and gives it what is held; if it cannot be
// started, the output goes to stdout.
func (pg *Pager) start() {
	pg.started = true
	cmd, err := pg.cmdLine()
	var in io.WriteCloser
	if err == nil {
		cmd.Stdout, cmd.Stderr = pg.cfg.Stdout, pg.cfg.Stderr
		in, err = cmd.StdinPipe()
	}
	if err == nil {
		err = cmd.Start()
	}
	held := pg.held
	pg.held = nil
	if err != nil {
		pg.cfg.Warn("pager: %v: the output follows without it", err)
		pg.in = nopCloser{pg.cfg.Direct}
		_, pg.err = pg.in.Write(held)
		return
	}
	pg.cmd, pg.in, pg.given = cmd, in, []byte{}
	pg.keep(held)
	if _, err := pg.in.Write(held); err != nil && !pg.failed() {
		pg.gone = true
	}
}

// failed reports a pager that stopped reading because it failed: it is
// waited for, and when its status is a failure, what it was given (when
// it was all kept) goes to stdout, and so does what comes after. A pager
// quit early with success (q, head) has done its job.
func (pg *Pager) failed() bool {
	cmd := pg.cmd
	pg.cmd = nil
	_ = pg.in.Close()
	err := cmd.Wait()
	var ee *exec.ExitError
	if err == nil || !errors.As(err, &ee) || ee.Success() {
		return false
	}
	if pg.given == nil {
		pg.cfg.Warn("pager %s failed (%v)", pg.cfg.Command, ee.ProcessState)
		return false
	}
	pg.cfg.Warn("pager %s failed (%v): the output follows without it", pg.cfg.Command, ee.ProcessState)
	pg.in = nopCloser{pg.cfg.Direct}
	_, pg.err = pg.in.Write(pg.given)
	pg.given = nil
	return true
}

// Close ends the output: what is held goes to stdout, or the pager gets
// the end of its input and is waited for (the user reads to the end).
func (pg *Pager) Close() error {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.done {
		return pg.err
	}
	pg.done = true
	if !pg.started {
		if len(pg.held) > 0 {
			_, pg.err = pg.cfg.Direct.Write(pg.held)
		}
		pg.held = nil
		return pg.err
	}
	if pg.cmd != nil {
		pg.failed() // (its status is the user's q, not the run's)
	}
	return pg.err
}

// cmdLine is the command for the pager: run directly when it is words
// without shell syntax ("less -R", "lesss"), as git does, so that a pager
// that is not there says so and the output is still written; through sh
// -c otherwise ("sed 's/^/> /'", "less | tee log").
func (pg *Pager) cmdLine() (*exec.Cmd, error) {
	environ := pg.cfg.Environ
	var cmd *exec.Cmd
	if strings.ContainsAny(pg.cfg.Command, "|&;<>()$`\\\"'*?[#~=%\n") {
		cmd = exec.Command("sh", "-c", pg.cfg.Command)
	} else {
		words := strings.Fields(pg.cfg.Command)
		// (looked for on the PATH the pager is given)
		path, err := execpath.Find(environValue(environ, "PATH"), words[0])
		if err != nil {
			return nil, err
		}
		cmd = exec.Command(path, words[1:]...)
		cmd.Args[0] = words[0]
	}
	// As git does: less and lv told to pass colour and to quit at the
	// end of a short output, unless the user says otherwise.
	environ = environ[:len(environ):len(environ)]
	for _, v := range []string{"LESS=FRX", "LV=-c"} {
		k, _, _ := strings.Cut(v, "=")
		if pg.cfg.Getenv == nil || pg.cfg.Getenv(k) == "" {
			environ = append(environ, v)
		}
	}
	cmd.Env = environ
	return cmd, nil
}

// Paging reports that the pager runs: a Ctrl-C is the pager's then.
func (pg *Pager) Paging() bool {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	return pg.started && pg.cmd != nil && !pg.done
}

// environValue is the value of k in environ (its last), "" when unset.
func environValue(environ []string, k string) string {
	v := ""
	for _, kv := range environ {
		if name, val, ok := strings.Cut(kv, "="); ok && name == k {
			v = val
		}
	}
	return v
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
