// Package agentproc runs the agent of 'agentfmt run' as a child process:
// its stdout and stderr through pipes of agentfmt's own, the signals that
// end a run passed on to it (to its process group when it leads one), and
// a bound on how long its output is waited for once it has exited.
package agentproc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Config is the agent to run and how.
type Config struct {
	// Name is the agent as typed, for messages; Path the file run; Args
	// its arguments, Args[0] the command as typed.
	Name string
	Path string
	Args []string
	// Stdin is passed on; Env is the agent's environment (nil: the
	// process's own).
	Stdin io.Reader
	Env   []string
	// WaitDelay bounds the copying of a Stdin that is not a file once
	// the agent has exited (exec.Cmd.WaitDelay); Grace how long its
	// output is waited for after its exit.
	WaitDelay, Grace time.Duration
	// Group: the agent leads a process group of its own (where there
	// are groups): the signals passed on and the clean-up reach its
	// children. Foreground reports that agentfmt and the agent share
	// the terminal's foreground group, so a Ctrl-C there has reached
	// the agent already (nil: they do not).
	Group      bool
	Foreground func() bool
	// Signals are the signals that end a run (nil: none): passed on.
	Signals <-chan os.Signal
	// Warn says on agentfmt's stderr what went wrong.
	Warn func(format string, args ...any)
}

// StartError is an agent that could not be started (exit 127).
type StartError struct{ Err error }

func (e *StartError) Error() string { return e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// Process is the agent running.
type Process struct {
	cfg Config
	cmd *exec.Cmd
	// Stdout is the agent's stdout to read; Stderr delivers its stderr
	// line by line (a line longer than 64 KiB in pieces), closed at its
	// end; Clock bounds the waiting for both once the agent has exited.
	Stdout *os.File
	Stderr <-chan string
	Clock  *Clock

	errPipe *os.File
	exited  chan struct{}
	waitErr error
	quit    chan struct{} // ends the reading of stderr
	done    chan struct{} // ends the passing on of signals
	fwd     chan struct{} // closed when it has ended

	mu   sync.Mutex
	sig  os.Signal // the first signal passed on
	head bytes.Buffer
}

// stderrHead is how much of the agent's stderr is kept to tell a
// rejected flag.
const stderrHead = 8 << 10

// Start starts the agent; Close releases what it holds once the agent
// has been waited for (Wait).
func Start(cfg Config) (*Process, error) {
	cmd := exec.Command(cfg.Path, cfg.Args[1:]...)
	cmd.Args[0] = cfg.Args[0]
	cmd.Stdin, cmd.Env, cmd.WaitDelay = cfg.Stdin, cfg.Env, cfg.WaitDelay
	cfg.Group = cfg.Group && GroupsSupported
	if cfg.Group {
		ownGroup(cmd)
	}
	// The pipes are agentfmt's own, not exec's: their ends are read and
	// closed here, while the agent is waited for beside them.
	stdout, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errPipe, errW, err := os.Pipe()
	if err != nil {
		stdout.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		stdout.Close()
		errPipe.Close()
		return nil, &StartError{Err: err}
	}
	p := &Process{cfg: cfg, cmd: cmd, Stdout: stdout, errPipe: errPipe, exited: make(chan struct{}),
		quit: make(chan struct{}), done: make(chan struct{}), fwd: make(chan struct{})}
	// The agent is waited for while its output is read: once it has
	// exited, what it wrote is read to the end, but a process it left
	// holding its stdout or stderr is waited for Grace at most.
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	p.Clock = NewClock(p.exited, cfg.Grace)
	side := make(chan string, 64)
	p.Stderr = side
	go p.readStderr(side)
	go func() {
		defer close(p.fwd)
		p.forward()
	}()
	return p, nil
}

// Close releases the pipes and ends the reading of stderr.
func (p *Process) Close() {
	close(p.quit)
	p.Stdout.Close()
	p.errPipe.Close()
}

// Wait waits for the agent's exit, once its output has been read. When a
// process it started still held its output open Grace after it exited,
// the processes of its group are ended (in agentfmt's own group they go
// on), and Warn says so; so it does of a wait that failed.
func (p *Process) Wait() {
	<-p.exited
	if p.Clock.Cut() {
		what := "stopped reading (it is still running)"
		if p.cfg.Group {
			endGroup(p.cmd.Process)
			what = "stopped reading and ended it"
		}
		p.cfg.Warn("%s exited, but a process it started still held its output open %v later: %s", p.cfg.Name, p.cfg.Grace, what)
	}
	close(p.done)
	<-p.fwd
	var ee *exec.ExitError
	if err := p.waitErr; err != nil && !errors.As(err, &ee) && !errors.Is(err, exec.ErrWaitDelay) {
		p.cfg.Warn("%s: %v", p.cfg.Name, err)
	}
}

// readStderr reads the agent's stderr line by line into side, keeping
// its beginning, and closes side at its end.
func (p *Process) readStderr(side chan<- string) {
	defer close(side)
	br := bufio.NewReaderSize(p.errPipe, 64<<10)
	for {
		b, err := br.ReadSlice('\n')
		if len(b) > 0 {
			p.mu.Lock()
			if n := stderrHead - p.head.Len(); n > 0 {
				p.head.Write(b[:min(n, len(b))])
			}
			p.mu.Unlock()
			select {
			case side <- strings.TrimRight(string(b), "\r\n"):
			case <-p.quit:
				return
			}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
	}
}

// forward passes the signals that end a run (SIGINT, SIGTERM, SIGHUP,
// SIGQUIT) on to the agent until done: to its process group when it leads
// one. When agentfmt and the agent share the terminal's foreground process
// group, a Ctrl-C or Ctrl-\ at the terminal has reached the agent already:
// the first SIGINT or SIGQUIT is not sent twice. A third signal kills the
// agent (its group).
func (p *Process) forward() {
	n := 0
	for {
		select {
		case s := <-p.cfg.Signals:
			n++
			p.mu.Lock()
			if p.sig == nil {
				p.sig = s
			}
			p.mu.Unlock()
			switch {
			case n >= 3:
				_ = signalGroup(p.cmd.Process, os.Kill, p.cfg.Group)
			case n == 1 && fromTerminal(s) && !p.cfg.Group && p.cfg.Foreground != nil && p.cfg.Foreground():
				// the terminal sent it to the agent too
			default:
				_ = signalGroup(p.cmd.Process, s, p.cfg.Group)
			}
		case <-p.done:
			return
		}
	}
}

// Signal is the first signal passed on to the agent (nil: none).
func (p *Process) Signal() os.Signal {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sig
}

// Head is the beginning of what the agent wrote to its stderr.
func (p *Process) Head() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.head.String()
}

// Failure is the agent's own failure, for a stream that gave no outcome:
// 1 for a non-zero exit, 128+N for a death by signal N; 0 when it
// succeeded.
func (p *Process) Failure() (int, string) {
	st := p.cmd.ProcessState
	if st == nil {
		return 0, ""
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), fmt.Sprintf("%s was killed by signal %d (%v) without a result", p.cfg.Name, int(ws.Signal()), ws.Signal())
	}
	if c := st.ExitCode(); c != 0 {
		return 1, fmt.Sprintf("%s exited with status %d without a result", p.cfg.Name, c)
	}
	return 0, ""
}
