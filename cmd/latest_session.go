package cmd

import (
	"fmt"
	"strings"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/internal/sessions"
	"github.com/spf13/cobra"
)

// pickSession finds the saved session --session ID names among those
// 'agentfmt sessions' lists: the one whose id is ID, else the only one
// whose id begins with it (as git takes a commit's short hash). An id
// that names none, or several, is a usage error that lists the ids it
// could have meant.
func pickSession(so sessions.Options, id string) (sessions.Session, error) {
	r := sessions.List(so)
	var found []sessions.Session
	for _, s := range r.Sessions {
		if s.ID == id {
			return s, nil
		}
		if strings.HasPrefix(s.ID, id) {
			found = append(found, s)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return sessions.Session{}, &exitError{code: ExitUsage, msg: fmt.Sprintf("--session %s: %d saved sessions have an id that begins so: %s; give more of it",
			id, len(found), listIDs(found, 5))}
	case len(r.Sessions) == 0:
		return sessions.Session{}, &exitError{code: ExitUsage, msg: "--session " + id + ": " + noSessions(so, r)}
	}
	return sessions.Session{}, &exitError{code: ExitUsage, msg: fmt.Sprintf("--session %s: no saved session of %s has that id; the latest: %s (agentfmt sessions lists them all)",
		id, r.Dir, listIDs(r.Sessions, 3))}
}

// listIDs names the first n sessions: id (agent), and how many more.
func listIDs(ss []sessions.Session, n int) string {
	var b strings.Builder
	for i, s := range ss[:min(n, len(ss))] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%s)", sanitize.Line(s.ID), s.Agent)
	}
	if len(ss) > n {
		fmt.Fprintf(&b, " and %d more", len(ss)-n)
	}
	return b.String()
}

// registerSessionCompletion completes --session with the ids of the
// saved sessions (see registerCompletions: for a completion request only).
func registerSessionCompletion(root *cobra.Command, env *Env) {
	_ = root.RegisterFlagCompletionFunc("session", func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
		return sessionIDs(env, prefix), cobra.ShellCompDirectiveNoFileComp
	})
}

// sessionIDs are the ids of the saved sessions that begin with prefix,
// newest first, each with its agent and first prompt.
func sessionIDs(env *Env, prefix string) []string {
	so, err := sessionOptions(env, &Options{})
	if err != nil {
		return nil
	}
	var ids []string
	for _, s := range sessions.List(so).Sessions {
		if s.ID == "" || !strings.HasPrefix(s.ID, prefix) {
			continue
		}
		desc := s.Agent
		if p := strings.Join(strings.Fields(s.Prompt), " "); p != "" {
			desc += ": " + eventtext.TruncateRunes(sanitize.Line(p), 50)
		}
		ids = append(ids, s.ID+"\t"+desc)
	}
	return ids
}
