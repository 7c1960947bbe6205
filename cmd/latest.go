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
	var id string
	root.Flags().BoolVar(&latest, "latest", false, "render the newest saved session of the current directory (--follow: live); see 'agentfmt sessions'")
	root.Flags().StringVar(&id, "session", "", "render the saved session 'agentfmt sessions' lists under this id (a unique prefix is enough; --follow: live)")
	run := root.RunE
	root.RunE = func(c *cobra.Command, args []string) error {
		if id != "" && len(args) > 0 && !c.Flags().Changed("session") {
			id = "" // (AGENTFMT_SESSION is a default: FILEs given win)
		}
		if !latest && id == "" {
			return run(c, args)
		}
		if err := o.validate(c); err != nil {
			return err
		}
		what := "--latest reads the newest saved session"
		if id != "" {
			what = "--session reads a saved session"
		}
		if latest && id != "" {
			return usagef("--latest and --session each choose a saved session: give one")
		}
		if len(args) > 0 {
			return usagef("%s: give it no FILE", what)
		}
		so, err := sessionOptions(env, o)
		if err != nil {
			return err
		}
		var s sessions.Session
		if id != "" {
			if s, err = pickSession(so, id); err != nil {
				*code = ExitUsage
				return err
			}
			if o.Debug || env.isTerminal(env.Stderr) {
				warnf(env.Stderr, "%s session %s (%s)", s.Agent, s.ID, tildePath(so.Home, s.Path))
			}
		} else {
			r := sessions.Latest(so)
			if len(r.Sessions) == 0 {
				*code = ExitUsage
				return &exitError{code: ExitUsage, msg: noSessions(so, r)}
			}
			s = r.Sessions[0]
			switch {
			case r.Dir != so.Dir:
				warnf(env.Stderr, "no saved sessions for %s: the latest of %s, above it, is %s session %s (%s)",
					so.Dir, r.Dir, s.Agent, s.ID, tildePath(so.Home, s.Path))
			case o.Debug || env.isTerminal(env.Stderr):
				warnf(env.Stderr, "%s session %s (%s)", s.Agent, s.ID, tildePath(so.Home, s.Path))
			}
		}
		n, err := renderSaved(c, env, o, so, s)
		*code = n
		return err
	}
}

// renderSaved renders (--follow: follows) a saved session, through the
// same path as 'agentfmt FILE'.
func renderSaved(c *cobra.Command, env *Env, o *Options, so sessions.Options, s sessions.Session) (int, error) {
	// --agent chose whose session; the file's own lines say how to read
	// it.
	ro := *o
	ro.Agent = "auto"
	if ro.Follow && s.Agent == sessions.Gemini && strings.HasSuffix(s.Path, ".json") {
		// Gemini CLI up to 0.38 writes the whole document again on every
		// change: there is nothing appended to follow.
		warnf(env.Stderr, "%s is a Gemini CLI chat saved as one JSON document, rewritten whole on every change: shown as it is now, not followed",
			tildePath(so.Home, s.Path))
		ro.Follow = false
	}
	return runFormat(c.Context(), env, &ro, []string{s.Path})
}
