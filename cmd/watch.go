package cmd

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/internal/sessions"
	"github.com/agentfmt/agentfmt/internal/watch"
	"github.com/agentfmt/agentfmt/render"
	"github.com/spf13/cobra"
)

func newWatch(env *Env, o *Options, code *int) *cobra.Command {
	var all bool
	var since time.Duration
	c := &cobra.Command{
		Use:   "watch",
		Short: "Follow every live agent session of the current directory at once, in one view",
		Long: `Follow every live session of the current directory at once: the Claude Code, Codex and
Gemini CLI session files written in the last --since (10 minutes), and every session that starts
while it runs. --all watches every project. It runs until Ctrl-C (exit 130).

Each session is a stream of its own, tagged with its agent and the first characters of its id
(claude·1a2b, codex·019f). On a terminal each has a lane: a heading (agent, project, session,
running, waiting on a tool, done or failed) with its live block under it, and its finished work
in the scrollback under its tag; a finished session stays as its summary line, and one whose turn
is over shows "waiting for a prompt". A session whose file is deleted, or that has not changed
for --since, is closed to its summary line. Ctrl-C stops the watching, not the sessions: they are
left as they were. -o plain begins
every line with the session's tag (as docker compose logs does); -o json gives every event a
"stream" field. --tee DIR copies each session file, as it is read, to DIR/TAG.jsonl.

Where the sessions are looked for is as for 'agentfmt sessions'; --agent watches one agent's.
Watching sleeps on the file system's notifications (inotify, kqueue, …): idle sessions cost
nothing.`,
		Example: `  agentfmt watch
  agentfmt watch --all --since 1h
  agentfmt watch -o plain | grep codex·`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := o.validate(c); err != nil {
				return err
			}
			if since <= 0 {
				return usagef("--since must be positive (a duration: 10m, 1h)")
			}
			so, err := sessionOptions(env, o)
			if err != nil {
				return err
			}
			so.All = all
			n, err := runWatch(env, o, so, since)
			*code = n
			return err
		},
	}
	c.Flags().BoolVar(&all, "all", false, "watch the sessions of every project, not only the current directory's")
	c.Flags().DurationVar(&since, "since", 10*time.Minute, "a session written this long ago or less is live (a duration: 10m, 1h)")
	return c
}

// runWatch follows the live sessions of so until a signal.
func runWatch(env *Env, o *Options, so sessions.Options, since time.Duration) (int, error) {
	ss, err := newStreamSet(env, o, nil)
	if err != nil {
		return codeOf(err), err
	}
	now := time.Now
	if env.Now != nil {
		now = env.Now
	}
	w := watch.New(watch.Config{Sessions: so, Since: since, Now: now, Hub: env.fileHub(), Every: env.watchPoll(), Stop: ss.stop,
		Follow: func(s sessions.Session, from int64) { ss.followSession(so, s, from) }})
	ss.endGone, ss.quietEnd, ss.onEnd = true, since, w.Ended
	n := w.Scan()
	if o.Debug || env.isTerminal(env.Stderr) {
		whose := "of " + so.Dir
		if so.All {
			whose = "of every project"
		}
		warnf(ss.stderr, "watching %d live session%s %s, and those that start (Ctrl-C stops)", n, plural(n), whose)
	}
	done := make(chan struct{})
	go func() { defer close(done); w.Run() }()
	code, err := ss.wait(true)
	<-done
	return code, err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// followSession adds a session of so as a stream, from offset from. A
// Gemini CLI chat saved as one JSON document is rewritten whole on every
// change: it cannot be followed.
func (ss *streamSet) followSession(so sessions.Options, s sessions.Session, from int64) {
	if s.Agent == sessions.Gemini && strings.HasSuffix(s.Path, ".json") {
		warnf(ss.stderr, "%s is a Gemini CLI chat saved as one JSON document, rewritten whole on every change: not watched (Gemini CLI 0.39 and later append lines)",
			tildePath(so.Home, s.Path))
		return
	}
	id := s.ID
	if id == "" {
		id = strings.TrimSuffix(filepath.Base(s.Path), filepath.Ext(s.Path))
	}
	short := id
	if r := []rune(id); len(r) > 4 {
		short = string(r[:4])
	}
	project := s.Cwd
	if project == "" {
		project = so.Dir
	}
	lane := render.Lane{Tag: s.Agent + "·" + short, Agent: s.Agent, Project: filepath.Base(project), Session: id, Saved: true}
	if err := ss.add(s.Path, lane, s.Agent+"·"+id, false, from); err != nil {
		warnf(ss.stderr, "%v", err)
	}
}
