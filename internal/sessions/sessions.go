// Package sessions finds the sessions that coding agents save on disk for a
// directory: Claude Code transcripts, Codex rollouts and Gemini CLI saved
// chats. It reads only inside each agent's own folder, and only the first
// lines of each file (at most headBytes), whatever the file's size.
//
// Everything the package needs from the process comes in Options (the home
// directory, the environment, the directory whose sessions are wanted), so
// tests point it at a fake home.
package sessions

import (
	"cmp"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/sanitize"
)

// The agents whose saved sessions are found, in the order they are listed
// on equal times.
const (
	Claude = "claude"
	Codex  = "codex"
	Gemini = "gemini"
)

// Agents are the agents whose sessions this package finds.
var Agents = []string{Claude, Codex, Gemini}

// Session is one saved session.
type Session struct {
	Agent string `json:"agent"`
	// ID is the id the agent resumes the session by.
	ID string `json:"id"`
	// Path is the session's file.
	Path string `json:"path"`
	// Cwd is the directory the session ran in, as the file records it
	// (empty when its first lines do not say).
	Cwd string `json:"cwd,omitempty"`
	// Modified is the file's modification time: the session's last
	// activity.
	Modified time.Time `json:"modified"`
	// Started is when the session began, when its first lines say.
	Started time.Time `json:"started,omitzero"`
	// Size is the file's size in bytes.
	Size int64 `json:"size"`
	// Prompt is the first thing the user asked, on one line, with
	// terminal controls made visible, cut after promptRunes runes.
	Prompt string `json:"prompt"`
}

// promptRunes caps the first prompt kept.
const promptRunes = 300

// Options say where to look.
type Options struct {
	// Dir is the directory whose sessions are wanted (absolute).
	Dir string
	// Home is the user's home directory ("": agents whose folders are
	// found only from it are skipped).
	Home string
	// Getenv reads the environment (CLAUDE_CONFIG_DIR, CODEX_HOME,
	// GEMINI_CLI_HOME, …); nil reads nothing.
	Getenv func(string) string
	// Agents restricts the search (nil: every agent).
	Agents []string
	// All wants the sessions of every directory, not only Dir's
	// ('agentfmt watch --all').
	All bool
	// Since, when set, leaves out the files last written before it: the
	// live sessions (watch).
	Since time.Time
}

func (o *Options) getenv(k string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(k)
}

func (o *Options) wants(agent string) bool {
	return len(o.Agents) == 0 || slices.Contains(o.Agents, agent)
}

// dirs are the spellings of Dir a file may record: as given, and with
// symbolic links resolved.
func (o *Options) dirs() []string {
	d := []string{filepath.Clean(o.Dir)}
	if r, err := filepath.EvalSymlinks(o.Dir); err == nil && r != d[0] {
		d = append(d, r)
	}
	return d
}

// isDir reports whether a path recorded by a session is the wanted one.
func (o *Options) isDir(recorded string) bool {
	if o.All {
		return true
	}
	if recorded == "" {
		return false
	}
	return slices.Contains(o.dirs(), filepath.Clean(recorded))
}

// candidate is a file that may be one of Dir's sessions: describe reads
// its first lines and says whether it is, and what it holds.
type candidate struct {
	agent    string
	path     string
	modified time.Time
	size     int64
	describe func(c *candidate) (Session, bool)
}

func (c *candidate) session() Session {
	return Session{Agent: c.agent, Path: c.path, Modified: c.modified, Size: c.size}
}

// Result is what a search found, and where it looked.
type Result struct {
	Sessions []Session
	// Searched are the folders looked in, one or more per agent.
	Searched []Searched
}

// Searched is a folder looked in.
type Searched struct {
	Agent string
	Dir   string
}

// List returns the sessions of o.Dir, newest first.
func List(o Options) Result {
	cands, searched := gather(o)
	var out []Session
	for i := range cands {
		if s, ok := cands[i].describe(&cands[i]); ok {
			out = append(out, s)
		}
	}
	return Result{Sessions: out, Searched: searched}
}

// Latest returns the newest session of o.Dir (Sessions holds it, or is
// empty). Files are read newest first until one belongs to o.Dir.
func Latest(o Options) Result {
	cands, searched := gather(o)
	for i := range cands {
		if s, ok := cands[i].describe(&cands[i]); ok {
			return Result{Sessions: []Session{s}, Searched: searched}
		}
	}
	return Result{Searched: searched}
}

// gather collects every agent's candidates, newest first.
func gather(o Options) ([]candidate, []Searched) {
	var cands []candidate
	var searched []Searched
	for _, f := range []struct {
		agent string
		find  func(Options) ([]candidate, []string)
	}{{Claude, claudeCandidates}, {Codex, codexCandidates}, {Gemini, geminiCandidates}} {
		if !o.wants(f.agent) {
			continue
		}
		c, dirs := f.find(o)
		if !o.Since.IsZero() {
			c = slices.DeleteFunc(c, func(c candidate) bool { return c.modified.Before(o.Since) })
		}
		cands = append(cands, c...)
		for _, d := range dirs {
			searched = append(searched, Searched{Agent: f.agent, Dir: d})
		}
	}
	slices.SortStableFunc(cands, func(a, b candidate) int {
		if c := b.modified.Compare(a.modified); c != 0 {
			return c
		}
		return cmp.Compare(a.path, b.path)
	})
	return cands, searched
}

// files lists the regular files of dir whose names keep says to (not its
// subdirectories, not symbolic links), as candidates.
func files(agent, dir string, keep func(name string) bool, describe func(*candidate) (Session, bool)) []candidate {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []candidate
	for _, e := range ents {
		if !e.Type().IsRegular() || !keep(e.Name()) {
			continue
		}
		if c, ok := fileCandidate(agent, filepath.Join(dir, e.Name()), e, describe); ok {
			out = append(out, c)
		}
	}
	return out
}

func fileCandidate(agent, path string, e fs.DirEntry, describe func(*candidate) (Session, bool)) (candidate, bool) {
	info, err := e.Info()
	if err != nil {
		return candidate{}, false
	}
	return candidate{agent: agent, path: path, modified: info.ModTime(), size: info.Size(), describe: describe}, true
}

// oneLine makes a prompt one line of visible text: whitespace runs become
// one space, terminal controls are made visible, and it is cut after
// promptRunes runes, an ellipsis marking the cut.
func oneLine(s string) string {
	var b strings.Builder
	space := false
	n := 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			n++
		}
		if n >= promptRunes {
			b.WriteString("…")
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if r == utf8.RuneError {
			r = '\uFFFD'
		}
		b.WriteRune(r)
		n++
	}
	return sanitize.String(b.String(), sanitize.Options{})
}

// parseTime reads an RFC 3339 time ("" or bad: the zero time).
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
