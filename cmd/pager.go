package cmd

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"unicode/utf8"
)

// The pager (--pager): a replayed FILE or --latest, or the
// sessions table, longer than the screen goes through $AGENTFMT_PAGER
// (the --pager flag's variable: a command where it is not auto or never),
// else $PAGER, else less -FRX, as bat, glow and gh do. Only on a terminal, and
// never for a live stream (stdin, --follow, run, demo): a pager shows
// nothing until it has a screenful, and reading ahead is its job, not a
// live view's. Output is held back until it is a screenful: a short run
// is written to the terminal as it is, and never starts a pager.

// pagerFor returns the pager for a run over files, or nil when the output
// goes to stdout as it is.
func pagerFor(env *Env, o *Options, files []string) *pager {
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
func newPager(env *Env, o *Options) *pager {
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
	return &pager{env: env, command: command, width: max(width, 1), height: height}
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

// pager is stdout through a pager. What is written is held until it fills
// the screen (then the pager starts and gets it) or the output ends (then
// it goes to the terminal as it is). Once the pager quits (q before the
// end), what is written is dropped: the input is still read to its end,
// so that the exit status is the run's. A pager that fails (not found, a
// bad option: it quits with a failure status) has shown nothing: what it
// was given is kept, up to keepLimit, and goes to stdout with the rest.
type pager struct {
	env           *Env
	command       string
	width, height int

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

func (pg *pager) Write(b []byte) (int, error) {
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
func (pg *pager) keep(b []byte) {
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
func (pg *pager) count(b []byte) bool {
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
			if pg.col++; pg.col > pg.width {
				pg.rows++
				pg.col = 1
			}
		}
		if pg.rows >= pg.height-1 {
			return true
		}
	}
	return false
}

// start runs the pager and gives it what is held; if it cannot be
// started, the output goes to stdout.
func (pg *pager) start() {
	pg.started = true
	cmd, err := pagerCmd(pg.env, pg.command)
	var in io.WriteCloser
	if err == nil {
		cmd.Stdout, cmd.Stderr = pg.env.Stdout, pg.env.Stderr
		in, err = cmd.StdinPipe()
	}
	if err == nil {
		err = cmd.Start()
	}
	held := pg.held
	pg.held = nil
	if err != nil {
		warnf(pg.env.Stderr, "pager: %v: the output follows without it", err)
		pg.in = nopCloser{outWriter{pg.env.Stdout}}
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
func (pg *pager) failed() bool {
	cmd := pg.cmd
	pg.cmd = nil
	_ = pg.in.Close()
	err := cmd.Wait()
	var ee *exec.ExitError
	if err == nil || !errors.As(err, &ee) || ee.Success() {
		return false
	}
	if pg.given == nil {
		warnf(pg.env.Stderr, "pager %s failed (%v)", pg.command, ee.ProcessState)
		return false
	}
	warnf(pg.env.Stderr, "pager %s failed (%v): the output follows without it", pg.command, ee.ProcessState)
	pg.in = nopCloser{outWriter{pg.env.Stdout}}
	_, pg.err = pg.in.Write(pg.given)
	pg.given = nil
	return true
}

// Close ends the output: what is held goes to stdout, or the pager gets
// the end of its input and is waited for (the user reads to the end).
func (pg *pager) Close() error {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.done {
		return pg.err
	}
	pg.done = true
	if !pg.started {
		if len(pg.held) > 0 {
			_, pg.err = outWriter{pg.env.Stdout}.Write(pg.held)
		}
		pg.held = nil
		return pg.err
	}
	if pg.cmd != nil {
		pg.failed() // (its status is the user's q, not the run's)
	}
	return pg.err
}

// pagerCmd is the command for the pager: run directly when it is words
// without shell syntax ("less -R", "lesss"), as git does, so that a pager
// that is not there says so and the output is still written; through sh
// -c otherwise ("sed 's/^/> /'", "less | tee log").
func pagerCmd(env *Env, command string) (*exec.Cmd, error) {
	environ := os.Environ()
	if env.Environ != nil {
		environ = env.Environ()
	}
	var cmd *exec.Cmd
	if strings.ContainsAny(command, "|&;<>()$`\\\"'*?[#~=%\n") {
		cmd = exec.Command("sh", "-c", command)
	} else {
		words := strings.Fields(command)
		// (looked for on the PATH the pager is given)
		path, err := lookPath(&Env{Getenv: func(string) string { return environValue(environ, "PATH") }}, words[0])
		if err != nil {
			return nil, err
		}
		cmd = exec.Command(path, words[1:]...)
		cmd.Args[0] = words[0]
	}
	// As git does: less and lv told to pass colour and to quit at the
	// end of a short output, unless the user says otherwise.
	for _, v := range []string{"LESS=FRX", "LV=-c"} {
		k, _, _ := strings.Cut(v, "=")
		if env.getenv(k) == "" {
			environ = append(environ, v)
		}
	}
	cmd.Env = environ
	return cmd, nil
}

// paging reports that the pager runs: a Ctrl-C is the pager's then.
func (pg *pager) paging() bool {
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
