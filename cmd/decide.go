package cmd

import (
	"io"
	"strconv"
	"strings"

	"github.com/agentfmt/agentfmt/internal/renderenv"
	"github.com/agentfmt/agentfmt/render"
)

// decide works out the format, colour, width and CI flavour from the flags
// and the environment, once.
func decide(env *Env, o *Options) (string, render.Config) {
	out := env.Stdout
	tty := env.isTerminal(out)
	format := o.Format
	if format == "" {
		format = "plain"
		if tty && env.getenv("TERM") != "dumb" {
			format = "pretty"
		}
	}
	cfg := render.Config{
		Color:      colorOn(env, o.Color, tty),
		Thinking:   render.ThinkingMode(o.Thinking),
		Tools:      render.ToolsMode(o.Tools),
		ToolLines:  o.ToolLines,
		AllowColor: o.AllowColor,
		Timestamps: o.Timestamps,
		Sentences:  o.Sentences,
		Until:      o.Until,
		CI:         ciOf(env, o.CI),
		Terminal:   tty,
	}
	renderenv.Set(&cfg, renderenv.Env{Now: env.Now, Tick: env.Tick, PartialWait: env.PartialWait})
	cfg.Width = o.Width
	if w, h, ok := termSize(env, out); ok {
		if cfg.Width == 0 {
			cfg.Width = w
		}
		cfg.Height = h
	}
	if cfg.Width == 0 {
		if n, err := strconv.Atoi(env.getenv("COLUMNS")); err == nil && n > 0 {
			cfg.Width = n
		}
	}
	if cfg.Width == 0 {
		cfg.Width = 100
	}
	if tty && env.TermSize != nil && o.Width == 0 {
		cfg.TermSize = func() (int, int, bool) { return env.TermSize(out) }
		cfg.Resize = env.Resize
		cfg.NoReflow = noReflow(env.getenv)
	}
	return format, cfg
}

// noReflow reports a terminal known to cut rows, not re-wrap them, when
// its window gets narrower: xterm (XTERM_VERSION), the Linux console
// (TERM=linux), GNU screen (STY, TERM=screen*) unless tmux is outside it
// (TMUX: tmux re-wraps, and sets TERM=screen too), rxvt and st. Any other
// terminal is taken to re-wrap, as most do.
func noReflow(getenv func(string) string) bool {
	if getenv("TMUX") != "" {
		return false
	}
	term := getenv("TERM")
	switch {
	case getenv("XTERM_VERSION") != "", getenv("STY") != "",
		term == "linux", strings.HasPrefix(term, "screen"), strings.HasPrefix(term, "rxvt"),
		term == "st" || strings.HasPrefix(term, "st-"):
		return true
	}
	return false
}

func termSize(env *Env, w io.Writer) (int, int, bool) {
	if env.TermSize == nil {
		return 0, 0, false
	}
	return env.TermSize(w)
}

// colorOn decides in this order: the flag; NO_COLOR, CLICOLOR=0, TERM=dumb
// off; CLICOLOR_FORCE, FORCE_COLOR on; on in a GitHub Actions or GitLab CI
// log; else whether the output is a terminal.
func colorOn(env *Env, flag string, tty bool) bool {
	switch flag {
	case "always":
		return true
	case "never":
		return false
	}
	if env.getenv("NO_COLOR") != "" || env.getenv("CLICOLOR") == "0" || env.getenv("TERM") == "dumb" {
		return false
	}
	for _, k := range []string{"CLICOLOR_FORCE", "FORCE_COLOR"} {
		if v := env.getenv(k); v != "" && v != "0" {
			return true
		}
	}
	// GitHub Actions and GitLab CI logs render ANSI colour, though the
	// job's output is not a terminal (gotestsum does the same).
	if env.getenv("GITHUB_ACTIONS") == "true" || env.getenv("GITLAB_CI") == "true" {
		return true
	}
	return tty
}

func ciOf(env *Env, flag string) render.CI {
	switch flag {
	case "github":
		return render.CIGitHub
	case "gitlab":
		return render.CIGitLab
	case "none":
		return render.CINone
	}
	if env.getenv("GITHUB_ACTIONS") == "true" {
		return render.CIGitHub
	}
	if env.getenv("GITLAB_CI") == "true" {
		return render.CIGitLab
	}
	return render.CINone
}
