package sessions

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// What 'agentfmt watch' needs to see sessions as they start: the folders
// where their files appear (Places), and whether a file that changed in
// one of them is a session of Options.Dir (Find).

// Place is a folder where session files appear, and how deep below it.
type Place struct {
	Agent string
	Dir   string
	// Depth is how many folders down the files are: 0 in Dir itself,
	// 1 in its folders (every project's Claude transcripts), -1 at any
	// depth (Codex's year/month/day folders).
	Depth int
}

// Places returns the folders where o's session files appear, whether
// they exist yet or not.
func Places(o Options) []Place {
	var out []Place
	if o.wants(Claude) {
		for _, root := range claudeRoots(o) {
			if o.All {
				out = append(out, Place{Claude, root, 1})
				continue
			}
			for _, n := range claudeNames(o, root) {
				out = append(out, Place{Claude, filepath.Join(root, n), 0})
			}
		}
	}
	if root := codexRoot(o); root != "" && o.wants(Codex) {
		out = append(out, Place{Codex, root, -1})
	}
	if gdir := geminiDir(o); gdir != "" && o.wants(Gemini) {
		if o.All {
			out = append(out, Place{Gemini, filepath.Join(gdir, "tmp"), 2})
		} else {
			for _, id := range geminiProjectIDs(o, gdir) {
				out = append(out, Place{Gemini, filepath.Join(gdir, "tmp", id, "chats"), 0})
			}
		}
	}
	return out
}

// Find reports whether the file at path is one of o's sessions (its
// modification time is not looked at). final reports that a no will stay
// a no: the file is not where or named as the agent's sessions are, or
// its first line is complete and says it is another directory's (or a
// subagent's); an empty file, or one whose first line is still being
// written, may become a session.
func Find(o Options, path string) (s Session, ok, final bool) {
	path = filepath.Clean(path)
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return s, false, err == nil
	}
	c := candidate{path: path, modified: info.ModTime(), size: info.Size()}
	name := filepath.Base(path)
	switch {
	case o.wants(Claude) && strings.HasSuffix(name, ".jsonl") && !strings.HasPrefix(name, "agent-") && claudePlace(o, path):
		c.agent = Claude
		s, ok = describeClaude(o, &c)
	case o.wants(Codex) && strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl") && under(codexRoot(o), path):
		c.agent = Codex
		s, ok = describeCodex(o, &c)
	case o.wants(Gemini) && strings.HasPrefix(name, "session-") && (strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl")) &&
		geminiPlace(o, path):
		c.agent = Gemini
		s, ok = describeGemini(&c)
	default:
		return s, false, true
	}
	return s, ok, !ok && firstLineDone(path)
}

// claudePlace reports a file in one of o's Claude project folders.
func claudePlace(o Options, path string) bool {
	dir := filepath.Dir(path)
	for _, root := range claudeRoots(o) {
		if filepath.Dir(dir) == filepath.Clean(root) && (o.All || slices.Contains(claudeNames(o, root), filepath.Base(dir))) {
			return true
		}
	}
	return false
}

// geminiPlace reports a file in one of o's Gemini chats folders.
func geminiPlace(o Options, path string) bool {
	gdir := geminiDir(o)
	chats := filepath.Dir(path)
	if gdir == "" || filepath.Base(chats) != "chats" || filepath.Dir(filepath.Dir(chats)) != filepath.Join(gdir, "tmp") {
		return false
	}
	return o.All || slices.Contains(geminiProjectIDs(o, gdir), filepath.Base(filepath.Dir(chats)))
}

// under reports whether path is inside root.
func under(root, path string) bool {
	if root == "" {
		return false
	}
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != "."
}

// firstLineDone reports that the file's first line is complete (or
// longer than 4 KiB: what describes a session is in it).
func firstLineDone(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 4096)
	n, _ := f.Read(b)
	return n == len(b) || bytes.IndexByte(b[:n], '\n') >= 0
}

// Dirs lists the folders of a place to watch: Dir, and its folders down
// to the place's depth (only those that exist).
func (p Place) Dirs() []string {
	out := []string{p.Dir}
	if p.Depth == 0 {
		return out
	}
	filepath.WalkDir(p.Dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || !e.IsDir() || path == p.Dir {
			if err != nil && path != p.Dir && e != nil && e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(p.Dir, path)
		depth := strings.Count(rel, string(filepath.Separator)) + 1
		if p.Depth > 0 && depth > p.Depth {
			return fs.SkipDir
		}
		out = append(out, path)
		return nil
	})
	return out
}
