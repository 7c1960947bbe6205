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
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/sanitize"
	"golang.org/x/text/unicode/norm"
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

	level int // of the wanted directory the session is of
}

// promptRunes caps the first prompt kept.
const promptRunes = 300

// Options say where to look.
type Options struct {
	// Dir is the directory whose sessions are wanted (absolute).
	Dir string
	// Up: when Dir has no sessions, those of the nearest directory above
	// it that has some, up to the root of the git repository Dir is in
	// (else up to, not including, the home directory and the file
	// system's root). A shell in a project's subdirectory then finds the
	// project's sessions; Result.Dir says whose they are.
	Up bool
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

	w *wanted // the directories wanted, worked out once per search
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

// wanted are the directories a search wants, by level: 0 is Dir, 1 its
// parent, and so on (with Up); each with the spellings a file may record
// it by.
type wanted struct {
	dirs      []string   // by level
	spellings [][]string // by level
	level     map[string]int
}

// want returns the directories wanted, working them out unless prepare
// has.
func (o *Options) want() *wanted {
	if o.w == nil {
		o.prepare()
	}
	return o.w
}

// prepare works out the directories wanted, once for the whole search.
func (o *Options) prepare() {
	dirs := []string{filepath.Clean(o.Dir)}
	if o.Up {
		dirs = append(dirs, parents(dirs[0], o.Home)...)
	}
	w := &wanted{dirs: dirs, level: map[string]int{}}
	for l, d := range dirs {
		sp := spellings(d)
		w.spellings = append(w.spellings, sp)
		for _, s := range sp {
			if _, ok := w.level[s]; !ok {
				w.level[s] = l
			}
		}
	}
	o.w = w
}

// spellings are the ways a file may record dir: as given, with symbolic
// links resolved (agents record the kernel's view), and each in Unicode's
// composed form (Claude Code records and names folders by it; macOS may
// give a directory's name decomposed).
func spellings(dir string) []string {
	d := []string{dir}
	if r, err := filepath.EvalSymlinks(dir); err == nil && r != dir {
		d = append(d, r)
	}
	for _, s := range d {
		if n := norm.NFC.String(s); !slices.Contains(d, n) {
			d = append(d, n)
		}
	}
	return d
}

// levelOf is the level of the directory a session records, or -1 when it
// is none of those wanted (with All, every directory is level 0).
func (o *Options) levelOf(recorded string) int {
	if o.All {
		return 0
	}
	if recorded == "" {
		return -1
	}
	if l, ok := o.want().level[filepath.Clean(recorded)]; ok {
		return l
	}
	return -1
}

// maxParents bounds how far up Up looks.
const maxParents = 32

// parents are the directories above dir that may hold its project's
// sessions, nearest first: up to the root of the git repository dir is in
// (a directory holding .git), else up to, not including, home and the
// file system's root. dir itself being a repository's root: none.
func parents(dir, home string) []string {
	if exists(filepath.Join(dir, ".git")) {
		return nil
	}
	var out []string
	for p := dir; len(out) < maxParents; {
		up := filepath.Dir(p)
		if up == p {
			break
		}
		p = up
		if exists(filepath.Join(p, ".git")) {
			return append(out, p) // the repository's root: the project
		}
		out = append(out, p)
	}
	// Not in a repository: not the home directory or the root, whose
	// sessions are nobody's project.
	root := filepath.VolumeName(dir) + string(filepath.Separator)
	home = filepath.Clean(home)
	for i, p := range out {
		if p == root || home != "." && p == home {
			return out[:i]
		}
	}
	return out
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// candidate is a file that may be one of Dir's sessions: describe reads
// its first lines and says whether it is, and what it holds.
type candidate struct {
	agent    string
	path     string
	modified time.Time
	size     int64
	// level is the wanted directory whose folder the file is in (-1: the
	// agent's folders are not by directory).
	level    int
	describe func(c *candidate) (Session, bool)
}

func (c *candidate) session() Session {
	return Session{Agent: c.agent, Path: c.path, Modified: c.modified, Size: c.size, level: c.level}
}

// Result is what a search found, and where it looked.
type Result struct {
	Sessions []Session
	// Dir is the directory the sessions are of: Options.Dir, or with Up
	// the one above it they were found for ("" when there are none).
	Dir string
	// Searched are the folders looked in, one or more per agent.
	Searched []Searched
}

// Searched is a folder looked in.
type Searched struct {
	Agent string
	Dir   string
}

// List returns the sessions of o.Dir (or, with o.Up, of the nearest
// directory above it that has some), newest first.
func List(o Options) Result {
	o.prepare()
	cands, searched := gather(o)
	found := describeAll(cands)
	best := -1
	for _, s := range found {
		if s.level >= 0 && (best < 0 || s.level < best) {
			best = s.level
		}
	}
	r := Result{Searched: searched}
	if best < 0 {
		return r
	}
	for _, s := range found {
		if s.level == best {
			r.Sessions = append(r.Sessions, s)
		}
	}
	r.Dir = o.w.dirs[best]
	return r
}

// Latest returns the newest session of o.Dir (or, with o.Up, of the
// nearest directory above it that has some): Sessions holds it, or is
// empty. Files are read newest first until one belongs to o.Dir.
func Latest(o Options) Result {
	o.prepare()
	cands, searched := gather(o)
	r := Result{Searched: searched}
	var best *Session
	for i := 0; i < len(cands); i += latestBatch {
		for _, s := range describeAll(cands[i:min(i+latestBatch, len(cands))]) {
			if s.level < 0 || best != nil && best.level <= s.level {
				continue
			}
			best = &s
			if s.level == 0 {
				break
			}
		}
		if best != nil && best.level == 0 {
			break
		}
	}
	if best != nil {
		r.Sessions, r.Dir = []Session{*best}, o.w.dirs[best.level]
	}
	return r
}

// latestBatch is how many files Latest reads at once, newest first.
const latestBatch = 16

// readers is how many files are read at once: the work is mostly waiting
// for the file system (opening, a first read), which overlaps well.
const readers = 8

// describeAll describes cands, several at a time, and returns the
// sessions among them in cands' order.
func describeAll(cands []candidate) []Session {
	out := make([]Session, len(cands))
	ok := make([]bool, len(cands))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(readers, len(cands)) {
		wg.Go(func() {
			for i := range next {
				if s, yes := cands[i].describe(&cands[i]); yes {
					// (its strings may be cut from the line read: a copy,
					// not the line, is kept)
					s.ID, s.Cwd = strings.Clone(s.ID), strings.Clone(s.Cwd)
					out[i], ok[i] = s, true
				}
			}
		})
	}
	for i := range cands {
		next <- i
	}
	close(next)
	wg.Wait()
	kept := out[:0]
	for i, s := range out {
		if ok[i] {
			kept = append(kept, s)
		}
	}
	return kept
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
// subdirectories, not symbolic links), as candidates of the wanted
// directory of level.
func files(agent, dir string, level int, keep func(name string) bool, describe func(*candidate) (Session, bool)) []candidate {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []candidate
	for _, e := range ents {
		if !e.Type().IsRegular() || !keep(e.Name()) {
			continue
		}
		if c, ok := fileCandidate(agent, filepath.Join(dir, e.Name()), level, e, describe); ok {
			out = append(out, c)
		}
	}
	return out
}

func fileCandidate(agent, path string, level int, e fs.DirEntry, describe func(*candidate) (Session, bool)) (candidate, bool) {
	info, err := e.Info()
	if err != nil || info.Size() == 0 {
		return candidate{}, false // (an empty file is no session yet)
	}
	return candidate{agent: agent, path: path, modified: info.ModTime(), size: info.Size(), level: level, describe: describe}, true
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
