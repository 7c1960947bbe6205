// Package cmd is agentfmt's command line: flags, environment, exit codes.
// Streams and environment come in an Env so tests run the whole command
// in-process.
package cmd

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/agentfmt/agentfmt/internal/input"
	"github.com/agentfmt/agentfmt/internal/manpage"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/spf13/cobra"
)

// Options are the parsed flags.
type Options struct {
	Agent      string
	Format     string
	Color      string
	Thinking   string
	Tools      string
	ToolLines  int
	Width      int
	Tee        string
	Until      string
	Follow     bool
	CI         string
	Summary    string
	AllowColor bool
	Timestamps bool
	Sentences  bool
	MaxLine    int64
	Strict     bool
	Debug      bool
	Verbose    bool
	Pager      string
	// OTLP is --otlp: "" (off), "auto" (the standard variables) or a URL;
	// OTLPContent adds content to the spans.
	OTLP        string
	OTLPContent bool
}

// Main runs agentfmt in the running process and returns its exit code.
func Main() int {
	return Run(os.Args[1:], OSEnv())
}

// Run executes the command line args in env and returns the exit code.
func Run(args []string, env *Env) int {
	code := ExitOK
	root := newRoot(env, &code)
	if args == nil {
		args = []string{} // (cobra takes nil for "read os.Args": a test binary's flags)
	}
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		// Only a completion request asks for them; cobra keeps them for the
		// life of the process, and with them every command tree made.
		registerCompletions(root)
		registerSessionCompletion(root, env)
	}
	root.SetArgs(args)
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	if err := root.Execute(); err != nil {
		return reportError(env, root, err)
	}
	return code
}

func reportError(env *Env, root *cobra.Command, err error) int {
	c := codeOf(err)
	var u *usageError
	if errors.As(err, &u) {
		warnf(env.Stderr, "%v", err)
		fmt.Fprintf(env.Stderr, "Run 'agentfmt --help' for usage.\n")
		return ExitUsage
	}
	if msg := err.Error(); msg != "" {
		warnf(env.Stderr, "%s", msg)
	}
	return c
}

func newRoot(env *Env, code *int) *cobra.Command {
	o := &Options{}
	root := &cobra.Command{
		Use:   "agentfmt [flags] [FILE...]",
		Short: "Render the JSON stream of AI coding agents for people, CI logs and scripts",
		Long: `agentfmt reads the NDJSON that AI coding agents print when run headless (Claude Code,
Codex, Gemini CLI, OpenCode, Cursor, Copilot, Antigravity, Amp, pi, CodeBuddy Code, OpenClaw,
ACP transcripts, Cline/Kilo)
from stdin or FILEs, and renders it: live on a terminal, append-only in CI logs, as normalized
JSON, or just the answer. 'agentfmt run AGENT …' runs the agent with the JSON flags it needs.`,
		Example: `  agentfmt run claude -p "fix the test"
  claude -p "fix the test" --output-format stream-json --verbose | agentfmt
  codex exec --json "add a flag" | agentfmt -o plain > job.log
  answer=$(opencode run --format json "summarise" | agentfmt -o text)
  agentfmt session.ndjson
  agentfmt --latest --follow        # the newest saved session of this directory, live
  agentfmt --session 0199           # the saved session whose id begins 0199  agentfmt --follow a.jsonl b.jsonl # several logs being written, at once
  agentfmt watch                    # every live agent session of this directory`,
		Version:       build().String(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		PersistentPreRunE: func(c *cobra.Command, args []string) error {
			if isCompletion(c) {
				return nil // (a bad AGENTFMT_ value must not break the shell's completion)
			}
			return applyEnv(env, c.Flags())
		},
		ValidArgsFunction:          completeFiles,
		SuggestionsMinimumDistance: 2,
		RunE: func(c *cobra.Command, args []string) error {
			if err := o.validate(c); err != nil {
				return err
			}
			if err := checkTypo(c, args); err != nil {
				return err
			}
			n, err := runFormat(c.Context(), env, o, args)
			*code = n
			return err
		},
	}
	f := root.PersistentFlags()
	f.StringVarP(&o.Agent, "agent", "a", "auto", "agent format: auto, "+strings.Join(all.Names(), ", "))
	f.StringVarP(&o.Format, "format", "o", "", "output: none (nothing; with --otlp: export only), pretty (default on a terminal), plain (default otherwise), json, text, markdown, html")
	f.StringVar(&o.Color, "color", "auto", "colour: auto, always, never")
	f.StringVar(&o.Thinking, "thinking", "summary", "thinking: summary (one line), full, none")
	f.StringVar(&o.Tools, "tools", "preview", "tool output: preview (head and tail), full, none")
	f.IntVar(&o.ToolLines, "tool-lines", 6, "lines of tool output in a preview")
	f.IntVar(&o.Width, "width", 0, "output width in cells (default: the terminal's, $COLUMNS, 100)")
	f.StringVar(&o.Tee, "tee", "", "copy the raw input to `FILE` byte for byte (with several streams, --follow A B or watch: a directory, one TAG.jsonl per stream)")
	f.StringVar(&o.Until, "until", "", "completion marker: stripped from output; exit 4 if the final answer lacks it")
	f.BoolVar(&o.Follow, "follow", false, "follow a FILE that is still being written; several FILEs at once, in one view")
	f.StringVar(&o.CI, "ci", "auto", "CI log markers and workflow-command escaping in every format: auto, github, gitlab, none (none: content bytes as they came)")
	f.StringVar(&o.Summary, "summary", "auto", "append a markdown summary to $GITHUB_STEP_SUMMARY: auto, always, never")
	f.BoolVar(&o.AllowColor, "allow-color", false, "let colour (SGR) sequences in tool output through")
	f.BoolVar(&o.Timestamps, "timestamps", false, "prefix plain lines with the event time")
	f.BoolVar(&o.Sentences, "sentences", false, "with -o json: emit text.sentence events")
	o.MaxLine = input.DefaultMaxLine
	f.Var(sizeValue{&o.MaxLine}, "max-line", "longest input line read whole (a size: 64MiB, 1GiB, 1048576)")
	f.BoolVar(&o.Strict, "strict", false, "contract violations and unparseable lines are errors (exit 65)")
	f.BoolVar(&o.Debug, "debug", false, "report contract repairs, unknown events and detection on stderr")
	f.StringVar(&o.Pager, "pager", "auto", "page a replayed FILE, --latest or the sessions table longer than the screen: auto ($PAGER, else less -FRX), never, or the pager COMMAND")
	f.StringVar(&o.OTLP, "otlp", "", "also export each run as an OpenTelemetry trace over OTLP/HTTP to the collector at `URL` (default: as the OTEL_EXPORTER_OTLP_* variables say, else localhost:4318)")
	f.Lookup("otlp").NoOptDefVal = "auto"
	f.BoolVar(&o.OTLPContent, "otlp-content", false, "with --otlp: also export prompts, answers, tool arguments and results (they may hold secrets)")
	f.BoolVar(&o.Verbose, "verbose", false, "also show the agent's chatter: unknown events, API request and rate-limit lines, task bookkeeping (json always has them)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &usageError{err: suggestFlag(c, flagError(err))} })
	root.SetVersionTemplate("agentfmt version {{.Version}}\n")
	root.AddCommand(newDemo(env, o, code), newRun(env, o, code), newMan(root), newVersion())
	root.AddCommand(newSessions(env, o, code), newWatch(env, o, code))
	addLatest(root, env, o, code)
	rootEnvHelp.once.Do(func() { rootEnvHelp.text = envHelp(root.PersistentFlags(), root.Flags()) })
	manpage.AddSection(root, "Environment", "Every flag can be set by an environment variable, AGENTFMT_<FLAG> (AGENTFMT_FORMAT=plain);\nflags win:\n"+
		rootEnvHelp.text)
	manpage.AddSection(root, "Exit status", exitHelp)
	setHelp(env, root)
	return root
}

// rootEnvHelp is the list of the root's variables in its help, made once:
// every root has the same flags.
var rootEnvHelp struct {
	once sync.Once
	text string
}

func oneOf(flag, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return usagef("invalid value %q for --%s (want %s)", v, flag, strings.Join(allowed, ", "))
}

func (o *Options) validate(c *cobra.Command) error {
	values := flagValues()
	agents := values["agent"]
	for _, a := range all.Agents() {
		agents = append(agents, a.Aliases...)
	}
	if err := oneOf("agent", o.Agent, agents...); err != nil {
		return err
	}
	if o.Format != "" {
		if err := oneOf("format", o.Format, values["format"]...); err != nil {
			return err
		}
	}
	for _, ch := range []struct{ flag, v string }{
		{"color", o.Color}, {"thinking", o.Thinking}, {"tools", o.Tools}, {"ci", o.CI}, {"summary", o.Summary},
	} {
		if err := oneOf(ch.flag, ch.v, values[ch.flag]...); err != nil {
			return err
		}
	}
	if strings.TrimSpace(o.Pager) == "" {
		return usagef("--pager needs auto, never or a command")
	}
	if o.ToolLines < 0 {
		return usagef("--tool-lines must be 0 or more")
	}
	if o.Width < 0 {
		return usagef("--width must be positive")
	}
	if o.MaxLine <= 0 {
		return usagef("--max-line must be positive")
	}
	if o.OTLPContent && !otlpOn(o.OTLP) {
		return usagef("--otlp-content goes with --otlp")
	}
	if o.Sentences && o.Format != "json" {
		return usagef("--sentences goes with -o json")
	}
	if c.Flags().Changed("until") && o.Until == "" {
		return usagef("--until needs a non-empty marker")
	}
	return nil
}
