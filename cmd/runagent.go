package cmd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/agentfmt/agentfmt/internal/agentcli"
	"github.com/agentfmt/agentfmt/internal/execpath"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
	"github.com/spf13/cobra"
)

// ExitNotFound is the exit status when the agent cannot be started: 127
// when it is not found, as a shell says.
const ExitNotFound = 127

func newRun(env *Env, o *Options, code *int) *cobra.Command {
	c := &cobra.Command{
		Use:   "run [flags] AGENT [ARGS...]",
		Short: "Run an agent with the JSON flags it needs, and render its output",
		Long: `Run AGENT as a child process with ARGS, adding the flags that make it print its JSON stream when
they are not there already, and render that stream. agentfmt's own flags go before AGENT; everything
after AGENT is the agent's. What is added, for each agent agentfmt knows:

` + agentcli.Table() + `

Any other command runs as it is. The agent's stderr is shown in place (lines of their own, never
dimmed, in pretty and plain; on agentfmt's stderr, sanitised, for json, text, markdown); stdin is passed on; Ctrl-C, SIGTERM, SIGHUP
(the terminal closed) and SIGQUIT reach the agent, agentfmt waits for it and exits 128+N: 130, 143,
129, 131 (a third signal kills it). The exit status is
the stream's; when the stream ends without a result, the agent's own failure: 1, or 128+signal.
When the agent exits at once rejecting a flag agentfmt added (an older version), agentfmt says so.`,
		Example: `  agentfmt run claude -p "fix the flaky test"
  agentfmt run codex "add a --dry-run flag"
  agentfmt -o plain --tee run.jsonl run gemini -p "explain main.go" > job.log
  answer=$(agentfmt -o text run opencode "summarise the README")`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("run needs an AGENT (claude, codex, gemini, …)")
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			if err := o.validate(c); err != nil {
				return err
			}
			if o.Follow {
				return usagef("--follow does not go with run")
			}
			n, err := runAgent(env, o, args[0], args[1:])
			*code = n
			return err
		},
	}
	c.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveDefault // the agent's own arguments
		}
		var names []string
		for _, s := range agentcli.Specs {
			names = append(names, s.Names[0]+"\t"+s.Title)
		}
		return names, cobra.ShellCompDirectiveNoFileComp
	}
	c.Flags().SetInterspersed(false) // everything from AGENT on is the agent's
	return c
}

// agentRun is the agent's process under 'agentfmt run'.
type agentRun struct {
	name  string // as typed
	spec  *agentcli.Spec
	added []string
	cmd   *exec.Cmd

	// group: the agent leads a process group of its own.
	group bool
	// grace is how long its output is waited for after its exit.
	grace time.Duration

	mu   sync.Mutex
	sig  os.Signal // the first signal passed on
	head bytes.Buffer
}

// stderrHead is how much of the agent's stderr is kept to tell a
// rejected flag.
const stderrHead = 8 << 10

// runAgent runs the agent and renders its stdout.
func runAgent(env *Env, o *Options, name string, args []string) (code int, err error) {
	spec, command := agentcli.Lookup(name)
	argv, added := args, []string(nil)
	if spec != nil {
		argv, added = spec.Prepare(args)
	}
	path, err := lookPath(env, command)
	if err != nil {
		return ExitNotFound, &exitError{code: ExitNotFound, msg: err.Error()}
	}
	// Signals are the run's: passed on to the agent, not ending the input.
	penv := *env
	penv.Signals = nil
	p, err := newPipeline(&penv, o, nil)
	if err != nil {
		return codeOf(err), err
	}
	defer p.close()
	defer p.guard(&code, &err)

	a := &agentRun{name: name, spec: spec, added: added}
	cmd := exec.Command(path, argv...)
	cmd.Args[0] = command
	cmd.Stdin = env.Stdin
	if env.Environ != nil {
		cmd.Env = env.Environ()
	}
	if p.out.trace != nil {
		if cmd.Env == nil {
			cmd.Env = os.Environ()
		}
		cmd.Env = handTrace(p.out.trace, strings.TrimSuffix(filepath.Base(command), ".exe"), cmd.Env)
	}
	// A stdin that is not a file is copied by a goroutine that may wait
	// for input the agent never reads: do not wait for it long.
	cmd.WaitDelay = env.stdinDelay()
	// When agentfmt has the terminal, the agent shares its process group:
	// a Ctrl-C there reaches the agent and what it started, and they may
	// read the terminal (a tool's password prompt). Otherwise (a CI job, a
	// script, a background job) the agent leads a group of its own, so
	// that the signals passed on and the clean-up reach its children.
	a.group = groupsSupported && (env.Foreground == nil || !env.Foreground())
	if a.group {
		ownGroup(cmd)
	}
	// The pipes are agentfmt's own, not exec's: their ends are read and
	// closed here, while the agent is waited for beside them.
	stdout, outW, err := os.Pipe()
	if err != nil {
		return ExitInternal, err
	}
	defer stdout.Close()
	errPipe, errW, err := os.Pipe()
	if err != nil {
		outW.Close()
		return ExitInternal, err
	}
	defer errPipe.Close()
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		p.gate.discard = true // no run to show a footer for
		_ = p.out.Finish(render.Summary{Outcome: streaming.Incomplete})
		return ExitNotFound, &exitError{code: ExitNotFound, msg: err.Error()}
	}
	a.cmd = cmd
	p.agent = a
	p.opened = true

	// The agent is waited for while its output is read: once it has
	// exited, what it wrote is read to the end, but a process it left
	// holding its stdout or stderr is waited for env.DrainGrace at most.
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()
	a.grace = env.drainGrace()
	clock := newDrainClock(exited, a.grace)

	side := make(chan string, 64)
	quit := make(chan struct{})
	defer close(quit)
	go a.readStderr(errPipe, side, quit)
	done := make(chan struct{})
	forwarded := make(chan struct{})
	go func() {
		defer close(forwarded)
		a.forward(env, done)
	}()

	feed := newFeeder(stdout, p.tee, nil)
	feed.side, feed.onSide, feed.clock = side, p.showStderr, clock
	runErr := p.read(feed)
	if p.lines == 0 && runErr == nil {
		p.empty = append(p.empty, "")
	}
	if runErr != nil {
		// Stdout is closed (| head) or rendering failed: the agent gets a
		// broken pipe on its next write, as in a shell pipeline.
		stdout.Close()
	}
	for { // what the agent wrote to stderr at its end
		l, ok := clock.next(side)
		if !ok {
			break
		}
		switch {
		case runErr == nil:
			runErr = p.showStderr(l)
		case !p.rendersStderr():
			_ = p.showStderr(l) // (agentfmt's stderr is still there)
		}
	}
	<-exited
	if clock.cut {
		a.endHeld(p)
	}
	close(done)
	<-forwarded
	var ee *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &ee) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		warnf(p.stderr, "%s: %v", name, waitErr)
	}
	if s := a.signal(); s != nil && (runErr == nil || !isClosedPipe(runErr)) {
		runErr = &errInterrupted{sig: s}
	}
	code, err = p.finish(runErr)
	if code != ExitOK && a.signal() == nil {
		a.explainRejected(p)
	}
	return code, err
}

// showStderr shows one line of the agent's stderr in place: through the
// renderer in pretty and plain as a line of its own, at full strength,
// never dimmed (it is where an agent says why it fails: "Error: Invalid
// API key"), sanitised, CI workflow commands in it neutralised like any
// content; on agentfmt's stderr for the formats that are data (json,
// text, markdown).
func (p *pipeline) showStderr(line string) error {
	switch p.format {
	case "pretty", "plain":
		ev := streaming.Event{Kind: streaming.KindStderr, Text: line}
		return p.sess.Push(&ev)
	}
	// The agent's words, on agentfmt's stderr: untrusted like any content
	// (agent output is never trusted), so one safe line.
	_, err := fmt.Fprintln(p.stderr, sanitize.Line(line))
	if err != nil {
		return nil // (agentfmt's stderr is gone: nothing to tell anyone)
	}
	return nil
}

// rendersStderr reports that the agent's stderr goes through the
// renderer, to stdout.
func (p *pipeline) rendersStderr() bool { return p.format == "pretty" || p.format == "plain" }

// readStderr reads the agent's stderr line by line into side, keeping
// its beginning, and closes side at its end. A line longer than 64 KiB is
// passed on in pieces.
func (a *agentRun) readStderr(r io.Reader, side chan<- string, quit <-chan struct{}) {
	defer close(side)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		b, err := br.ReadSlice('\n')
		if len(b) > 0 {
			a.mu.Lock()
			if n := stderrHead - a.head.Len(); n > 0 {
				a.head.Write(b[:min(n, len(b))])
			}
			a.mu.Unlock()
			select {
			case side <- strings.TrimRight(string(b), "\r\n"):
			case <-quit:
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
func (a *agentRun) forward(env *Env, done <-chan struct{}) {
	n := 0
	for {
		select {
		case s := <-env.Signals:
			n++
			a.mu.Lock()
			if a.sig == nil {
				a.sig = s
			}
			a.mu.Unlock()
			switch {
			case n >= 3:
				_ = signalGroup(a.cmd.Process, os.Kill, a.group)
			case n == 1 && fromTerminal(s) && !a.group && env.Foreground != nil && env.Foreground():
				// the terminal sent it to the agent too
			default:
				_ = signalGroup(a.cmd.Process, s, a.group)
			}
		case <-done:
			return
		}
	}
}

// endHeld ends the wait for a process the agent left holding its output,
// once a.grace has run out after the agent's exit: the processes of
// the agent's group are ended; in agentfmt's own group they go on, and
// agentfmt stops reading.
func (a *agentRun) endHeld(p *pipeline) {
	what := "stopped reading (it is still running)"
	if a.group {
		endGroup(a.cmd.Process)
		what = "stopped reading and ended it"
	}
	warnf(p.stderr, "%s exited, but a process it started still held its output open %v later: %s", a.name, a.grace, what)
}

func (a *agentRun) signal() os.Signal {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sig
}

// failure is the agent's own failure, for a stream that gave no outcome:
// 1 for a non-zero exit, 128+N for a death by signal N; 0 when it
// succeeded.
func (a *agentRun) failure() (int, string) {
	st := a.cmd.ProcessState
	if st == nil {
		return 0, ""
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), fmt.Sprintf("%s was killed by signal %d (%v) without a result", a.name, int(ws.Signal()), ws.Signal())
	}
	if c := st.ExitCode(); c != 0 {
		return ExitFailed, fmt.Sprintf("%s exited with status %d without a result", a.name, c)
	}
	return 0, ""
}

// explainRejected says when the agent failed at once because it does not
// take a flag agentfmt added (an older version): its own message is shown
// above, this says what to do.
func (a *agentRun) explainRejected(p *pipeline) {
	if a.spec == nil || len(a.added) == 0 || p.out.tally.agent {
		return
	}
	if c, _ := a.failure(); c == 0 {
		return
	}
	a.mu.Lock()
	head := a.head.String()
	a.mu.Unlock()
	bad := a.spec.Rejected(a.added, head)
	if len(bad) == 0 {
		return
	}
	msg := fmt.Sprintf("agentfmt: %s rejected %s, which 'agentfmt run' added for %s's JSON stream: this %s is probably too old",
		a.name, strings.Join(bad, " "), a.spec.Title, a.name)
	if a.spec.Since != "" {
		msg += " (" + a.spec.Since + ")"
	}
	msg += fmt.Sprintf(". Update it, or run it with the flags it takes and pipe it in: %s … | agentfmt", a.name)
	fmt.Fprintln(p.stderr, msg)
}

// lookPath finds a command on the PATH of env, as exec.LookPath does on
// the process's.
func lookPath(env *Env, name string) (string, error) {
	path := os.Getenv("PATH")
	if env.Getenv != nil {
		path = env.getenv("PATH")
	}
	return execpath.Find(path, name)
}
