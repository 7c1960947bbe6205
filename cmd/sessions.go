package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/internal/palette"
	"github.com/agentfmt/agentfmt/internal/sanitize"
	"github.com/agentfmt/agentfmt/internal/sessions"
	"github.com/agentfmt/agentfmt/internal/termwrap"
	"github.com/spf13/cobra"
)

func newSessions(env *Env, o *Options, code *int) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "sessions",
		Short: "List the agents' saved sessions of the current directory, newest first",
		Long: `List the sessions that Claude Code, Codex and Gemini CLI saved for the current directory,
newest first: when it was last written, the agent, the session id (what the agent resumes by),
the file's size and the first prompt. 'agentfmt --latest' renders the newest one, 'agentfmt
--session ID' the one of that id (a unique prefix is enough). In a directory
with none, those of the nearest directory above it that has some, up to the root of its git
repository (outside one, up to the home directory): a project's subdirectory lists the project's.

Where they are looked for: Claude Code in $CLAUDE_CONFIG_DIR/projects (else ~/.claude/projects and
~/.config/claude/projects), Codex in $CODEX_HOME/sessions (else ~/.codex/sessions), Gemini CLI in
$GEMINI_CLI_HOME/.gemini/tmp (else ~/.gemini/tmp). Only those folders are read, and only the first
lines of each file. --agent lists one agent's only.

On a terminal the list is a table with relative times, paged when longer than the screen
(see --pager); otherwise one tab-separated line per session (time in RFC 3339, size in bytes).
--json prints every field, the file's path too. Exit status 1 when there is none.`,
		Example: `  agentfmt sessions
  agentfmt sessions --agent codex
  agentfmt "$(agentfmt sessions --json | jq -r '.[1].path')"   # the one before the latest`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := o.validate(c); err != nil {
				return err
			}
			so, err := sessionOptions(env, o)
			if err != nil {
				return err
			}
			r := sessions.List(so)
			for _, msg := range unreadableFolders(so.Home, r.Searched, os.ReadDir) {
				warnf(env.Stderr, "%s", msg)
			}
			if r.Dir != "" && r.Dir != so.Dir {
				warnf(env.Stderr, "no saved sessions for %s: these are of %s, above it", so.Dir, r.Dir)
			}
			if asJSON || o.Format == "json" {
				if err := writeSessionsJSON(env.Stdout, r.Sessions); err != nil {
					return err
				}
			} else if err := writeSessions(env, o, r.Sessions); err != nil {
				return err
			}
			if len(r.Sessions) == 0 {
				*code = ExitFailed
				return &exitError{code: ExitFailed, msg: noSessions(so, r)}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the sessions as a JSON array (agent, id, path, cwd, modified, started, size, prompt)")
	return c
}

// sessionOptions are where to look for the current directory's sessions,
// and for which agents (--agent: one of those that keep sessions).
func sessionOptions(env *Env, o *Options) (sessions.Options, error) {
	so := sessions.Options{Getenv: env.getenv, Home: env.getenv("HOME")}
	if so.Home == "" {
		so.Home = env.getenv("USERPROFILE")
	}
	if o.Agent != "" && o.Agent != "auto" {
		if !slices.Contains(sessions.Agents, o.Agent) {
			return so, usagef("--agent %s: agentfmt finds the saved sessions of %s only", o.Agent, strings.Join(sessions.Agents, ", "))
		}
		so.Agents = []string{o.Agent}
	}
	getwd := os.Getwd
	if env.Getwd != nil {
		getwd = env.Getwd
	}
	dir, err := getwd()
	if err != nil {
		return so, &exitError{code: ExitUsage, msg: "the current directory: " + err.Error()}
	}
	so.Dir = dir
	// In a project's subdirectory: the project's sessions.
	so.Up = true
	return so, nil
}

// noSessions says that there is none, and where they were looked for.
func noSessions(so sessions.Options, r sessions.Result) string {
	var where []string
	for _, s := range r.Searched {
		where = append(where, tildePath(so.Home, s.Dir))
	}
	msg := "no saved sessions for " + so.Dir
	if len(so.Agents) == 1 {
		msg = fmt.Sprintf("no saved %s sessions for %s", so.Agents[0], so.Dir)
	}
	if len(where) > 0 {
		msg += " (looked in " + strings.Join(where, ", ") + ")"
	} else {
		msg += " (HOME is not set, nor CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME)"
	}
	return msg
}

// tildePath writes a path under the home directory as ~/….
func tildePath(home, p string) string {
	if home != "" {
		if rel, err := filepath.Rel(home, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.Join("~", rel)
		}
	}
	return p
}

// sessionJSON is one session in --json output.
type sessionJSON struct {
	Agent    string `json:"agent"`
	ID       string `json:"id"`
	Path     string `json:"path"`
	Cwd      string `json:"cwd,omitempty"`
	Modified string `json:"modified"`
	Started  string `json:"started,omitempty"`
	Size     int64  `json:"size"`
	Prompt   string `json:"prompt"`
}

func writeSessionsJSON(w io.Writer, ss []sessions.Session) error {
	out := make([]sessionJSON, 0, len(ss))
	for _, s := range ss {
		j := sessionJSON{Agent: s.Agent, ID: s.ID, Path: s.Path, Cwd: s.Cwd, Size: s.Size, Prompt: s.Prompt,
			Modified: s.Modified.UTC().Format(time.RFC3339Nano)}
		if !s.Started.IsZero() {
			j.Started = s.Started.UTC().Format(time.RFC3339Nano)
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// writeSessions prints one line per session: a table on a terminal,
// tab-separated fields otherwise. Names, ids and prompts come from the
// agents' files: untrusted text, each made one safe cell (controls shown,
// no tab or newline to break the line or the columns).
func writeSessions(env *Env, o *Options, ss []sessions.Session) error {
	if len(ss) == 0 {
		return nil
	}
	now := time.Now()
	if env.Now != nil {
		now = env.Now()
	}
	if !env.isTerminal(env.Stdout) {
		var b strings.Builder
		for _, s := range ss {
			fmt.Fprintf(&b, "%s\t%s\t%s\t%d\t%s\n", s.Modified.UTC().Format(time.RFC3339), cell(s.Agent), cell(s.ID), s.Size, cell(s.Prompt))
		}
		_, err := io.WriteString(env.Stdout, b.String())
		return err
	}
	_, cfg := decide(env, o)
	p := palette.New(cfg.Color)
	rows := [][]string{{"WHEN", "AGENT", "SESSION", "SIZE"}}
	for _, s := range ss {
		rows = append(rows, []string{ago(now, s.Modified), cell(s.Agent), cell(s.ID), humanSize(s.Size)})
	}
	// The fixed columns, aligned by their cells on the screen; the prompt
	// takes what is left of the width.
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], termwrap.Width(c))
		}
	}
	var b strings.Builder
	for i, r := range rows {
		var line strings.Builder
		for j, c := range r {
			line.WriteString(c)
			line.WriteString(strings.Repeat(" ", widths[j]-termwrap.Width(c)+2))
		}
		l := line.String()
		room := cfg.Width - termwrap.Width(l)
		if i == 0 {
			b.WriteString(p.Bold(l + "FIRST PROMPT"[:min(max(room, 0), len("FIRST PROMPT"))]))
			b.WriteByte('\n')
			continue
		}
		prompt := cell(ss[i-1].Prompt)
		if prompt == "" {
			prompt = p.Dim("–")
		} else {
			prompt = termwrap.Truncate(prompt, max(room, 1)).S
		}
		when := r[0] + strings.Repeat(" ", widths[0]-termwrap.Width(r[0]))
		b.WriteString(p.Dim(when) + l[len(when):] + prompt + "\n")
	}
	// A table longer than the screen is paged, as a replayed FILE is.
	if pg := newPager(env, o); pg != nil {
		if _, err := io.WriteString(pg, b.String()); err != nil {
			return err
		}
		return pg.Close()
	}
	_, err := io.WriteString(env.Stdout, b.String())
	return err
}

// cell makes untrusted text one safe cell of a line.
func cell(s string) string { return sanitize.Line(s) }

// ago is how long ago t was, briefly.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	}
	return t.Local().Format("2006-01-02")
}

// humanSize is a byte count in B, KiB, MiB or GiB.
func humanSize(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%d B", n)
	case n < k*k:
		return fmt.Sprintf("%.1f KiB", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1f MiB", float64(n)/(k*k))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(k*k*k))
}
