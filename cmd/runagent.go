package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentfmt/agentfmt/internal/agentcli"
	"github.com/agentfmt/agentfmt/internal/agentproc"
	"github.com/agentfmt/agentfmt/internal/execpath"
	"github.com/agentfmt/agentfmt/internal/feed"
	"github.com/agentfmt/agentfmt/internal/sanitize"
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

// agentRun is the agent of 'agentfmt run': what was added to its
// command line, and its process.
type agentRun struct {
	name  string // as typed
	spec  *agentcli.Spec
	added []string
	proc  *agentproc.Process
}

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

	var environ []string
	if env.Environ != nil {
		environ = env.Environ()
	}
	if p.out.trace != nil {
		if environ == nil {
			environ = os.Environ()
		}
		environ = handTrace(p.out.trace, strings.TrimSuffix(filepath.Base(command), ".exe"), environ)
	}
	proc, err := agentproc.Start(agentproc.Config{Name: name, Path: path, Args: append([]string{command}, argv...),
		Stdin: env.Stdin, Env: environ,
		// A stdin that is not a file is copied by a goroutine that may
		// wait for input the agent never reads: not waited for long.
		WaitDelay: env.stdinDelay(), Grace: env.drainGrace(),
		// When agentfmt has the terminal, the agent shares its process
		// group: a Ctrl-C there reaches the agent and what it started,
		// and they may read the terminal (a tool's password prompt).
		// Otherwise (a CI job, a script, a background job) the agent
		// leads a group of its own.
		Group:   env.Foreground == nil || !env.Foreground(),
		Signals: env.Signals, Foreground: env.Foreground,
		Warn: func(format string, args ...any) { warnf(p.stderr, format, args...) }})
	var se *agentproc.StartError
	if errors.As(err, &se) {
		p.gate.discard = true // no run to show a footer for
		_ = p.out.Finish(render.Summary{Outcome: streaming.Incomplete})
		return ExitNotFound, &exitError{code: ExitNotFound, msg: err.Error()}
	}
	if err != nil {
		return ExitInternal, err
	}
	defer proc.Close()
	p.agent = &agentRun{name: name, spec: spec, added: added, proc: proc}
	p.opened = true

	in := feed.NewFeeder(proc.Stdout, p.tee.write, nil)
	in.Side, in.OnSide, in.Clock = proc.Stderr, p.showStderr, proc.Clock
	runErr := p.read(in)
	if p.lines == 0 && runErr == nil {
		p.empty = append(p.empty, "")
	}
	if runErr != nil {
		// Stdout is closed (| head) or rendering failed: the agent gets a
		// broken pipe on its next write, as in a shell pipeline.
		proc.Stdout.Close()
	}
	for { // what the agent wrote to stderr at its end
		l, ok := proc.Clock.Next(proc.Stderr)
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
	proc.Wait()
	if s := proc.Signal(); s != nil && (runErr == nil || !isClosedPipe(runErr)) {
		runErr = &errInterrupted{Sig: s}
	}
	code, err = p.finish(runErr)
	if code != ExitOK && proc.Signal() == nil {
		p.agent.explainRejected(p)
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

// explainRejected says when the agent failed at once because it does not
// take a flag agentfmt added (an older version): its own message is shown
// above, this says what to do.
func (a *agentRun) explainRejected(p *pipeline) {
	if a.spec == nil || len(a.added) == 0 || p.out.tally.agent {
		return
	}
	if c, _ := a.proc.Failure(); c == 0 {
		return
	}
	bad := a.spec.Rejected(a.added, a.proc.Head())
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
