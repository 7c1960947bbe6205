package cmd

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/sessions"
	"github.com/spf13/cobra"
)

// addLatest gives the root command --latest: instead of FILEs, it renders
// the newest saved session of the current directory (of one agent with
// --agent), through the same path as 'agentfmt FILE' — so --follow
// follows it live (what the file holds so far, then the lines
// the agent appends), and every output flag applies.
func addLatest(root *cobra.Command, env *Env, o *Options, code *int) {
	var latest bool
	root.Flags().BoolVar(&latest, "latest", false, "render the newest saved session of the current directory (--follow: live); see 'agentfmt sessions'")
	run := root.RunE
	root.RunE = func(c *cobra.Command, args []string) error {
		if !latest {
			return run(c, args)
		}
		if err := o.validate(c); err != nil {
			return err
		}
		if len(args) > 0 {
			return usagef("--latest reads the newest saved session: give it no FILE")
		}
		so, err := sessionOptions(env, o)
		if err != nil {
			return err
		}
		r := sessions.Latest(so)
		if len(r.Sessions) == 0 {
			*code = ExitUsage
			return &exitError{code: ExitUsage, msg: noSessions(so, r)}
		}
		s := r.Sessions[0]
		switch {
		case r.Dir != so.Dir:
			warnf(env.Stderr, "no saved sessions for %s: the latest of %s, above it, is %s session %s (%s)",
				so.Dir, r.Dir, s.Agent, s.ID, tildePath(so.Home, s.Path))
		case o.Debug || env.isTerminal(env.Stderr):
			warnf(env.Stderr, "%s session %s (%s)", s.Agent, s.ID, tildePath(so.Home, s.Path))
		}
		// --agent chose whose session; the file's own lines say how to
		// read it.
		ro := *o
		ro.Agent = "auto"
		if ro.Follow && s.Agent == sessions.Gemini && strings.HasSuffix(s.Path, ".json") {
			// Gemini CLI up to 0.38 writes the whole document again on
			// every change: there is nothing appended to follow.
			warnf(env.Stderr, "%s is a Gemini CLI chat saved as one JSON document, rewritten whole on every change: shown as it is now, not followed",
				tildePath(so.Home, s.Path))
			ro.Follow = false
		}
		n, err := runFormat(c.Context(), env, &ro, []string{s.Path})
		*code = n
		return err
	}
}
