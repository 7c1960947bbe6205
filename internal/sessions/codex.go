package sessions

import (
	"cmp"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
)

// Codex keeps one rollout per thread in
// $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<local time>-<thread id>.jsonl
// (CODEX_HOME defaults to ~/.codex). The directory is recorded only inside:
// the first line, session_meta, holds it (payload.cwd; top-level cwd in the
// older bare layout), so the first line of every rollout is read — newest
// first, and for --latest only until one matches. Resuming a thread
// appends to its file, so the file's time, not its name, says how recent
// it is. Subagent threads (their own rollouts, with a parent thread) are
// not listed.

func codexRoot(o Options) string {
	if d := o.getenv("CODEX_HOME"); d != "" {
		return filepath.Join(d, "sessions")
	}
	if o.Home == "" {
		return ""
	}
	return filepath.Join(o.Home, ".codex", "sessions")
}

func codexCandidates(o Options) ([]candidate, []string) {
	root := codexRoot(o)
	if root == "" {
		return nil, nil
	}
	describe := func(c *candidate) (Session, bool) { return describeCodex(o, c) }
	var cands []candidate
	// The start is followed when it is a symbolic link (a sessions folder
	// kept elsewhere); WalkDir follows none below it, so a link loop in
	// it is never entered.
	start := root
	if fi, err := os.Lstat(root); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if r, err := filepath.EvalSymlinks(root); err == nil {
			start = r
		}
	}
	filepath.WalkDir(start, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if e != nil && e.IsDir() && path != start {
				return fs.SkipDir
			}
			return nil
		}
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, "rollout-") || !strings.HasSuffix(name, ".jsonl") {
			return nil
		}
		if c, ok := fileCandidate(Codex, path, -1, e, describe); ok {
			cands = append(cands, c)
		}
		return nil
	})
	return cands, []string{root}
}

// describeCodex reads a rollout's first line for its directory, then, when
// it is the wanted one, the lines up to the first prompt.
func describeCodex(o Options, c *candidate) (Session, bool) {
	s := c.session()
	h, err := openHead(c.path)
	if err != nil {
		return s, false
	}
	defer h.close()
	// The first line may be tens of kilobytes (the instructions), and its
	// directory comes early: most rollouts are another directory's, told
	// from the line's first kilobytes.
	if start, ok := record(h.peek()); ok {
		meta := start
		if start.Get("type").String() == "session_meta" {
			meta = start.Get("payload")
		}
		if cwd := meta.Get("cwd"); cwd.Type == gjson.String && o.levelOf(cwd.String()) < 0 {
			return s, false
		}
	}
	line, ok := h.next()
	if !ok {
		return s, false
	}
	first, ok := record(line)
	if !ok {
		return s, false
	}
	meta := first
	if first.Get("type").String() == "session_meta" {
		meta = first.Get("payload")
	}
	s.Cwd = meta.Get("cwd").String()
	if s.level = o.levelOf(s.Cwd); s.level < 0 {
		return s, false
	}
	if meta.Get("parent_thread_id").String() != "" || meta.Get("thread_source").String() == "subagent" ||
		meta.Get("source.subagent").Exists() {
		return s, false
	}
	s.ID = meta.Get("id").String()
	if s.ID == "" {
		s.ID = codexIDFromName(filepath.Base(c.path))
	}
	s.Started = parseTime(meta.Get("timestamp").String())
	// The prompt as rendering shows it (the words typed, user_message);
	// a file cut before its first user_message falls back on the model's
	// view of it, the user's response item without injected context.
	var fallback string
	p := parseHead(Codex, h, line, func(line []byte) bool {
		r, ok := record(line)
		if !ok || fallback != "" {
			return true
		}
		if pl := r.Get("payload"); pl.IsObject() {
			r = pl
		}
		if r.Get("type").String() == "message" && r.Get("role").String() == "user" {
			r.Get("content").ForEach(func(_, b gjson.Result) bool {
				if t := codexPrompt(b.Get("text").String()); t != "" && !codexInjected(t) {
					fallback = t
					return false
				}
				return true
			})
		}
		return true
	})
	s.Prompt = cmp.Or(p.prompt, oneLine(fallback))
	return s, true
}

// codexPrompt drops the context an IDE puts before the request.
func codexPrompt(t string) string {
	if _, req, ok := strings.Cut(t, "## My request for Codex:"); ok {
		t = req
	}
	return strings.TrimSpace(t)
}

// codexInjected reports text Codex adds to the user's turn itself.
func codexInjected(t string) bool {
	for _, p := range []string{"<environment_context>", "<user_instructions>", "# AGENTS.md", "# Context from my IDE setup", "<permissions", "<INSTRUCTIONS>"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// codexIDFromName is the thread id at the end of a rollout's name:
// rollout-2025-09-25T15-12-14-<uuid>.jsonl.
func codexIDFromName(name string) string {
	name = strings.TrimSuffix(name, ".jsonl")
	if len(name) >= 36 {
		return name[len(name)-36:]
	}
	return name
}
