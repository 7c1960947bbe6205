package sessions

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// Claude Code keeps one transcript per session in
// <config>/projects/<project dir>/<session id>.jsonl, where <config> is
// $CLAUDE_CONFIG_DIR, else ~/.claude (and ~/.config/claude on some
// installs), and <project dir> is the session's directory with every
// character other than a letter or digit turned into "-", cut at 200
// characters with a hash added when longer. Subagent transcripts
// (agent-*.jsonl beside it, or in <session id>/subagents/) are not
// sessions of their own.
//
// The name is lossy ("/a/b.c" and "/a/b-c" share one), so the directory a
// transcript records (its first "cwd") decides.

// claudeMaxName is the longest project directory name Claude Code writes
// whole.
const claudeMaxName = 200

func claudeRoots(o Options) []string {
	if d := o.getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return []string{filepath.Join(d, "projects")}
	}
	if o.Home == "" {
		return nil
	}
	roots := []string{filepath.Join(o.Home, ".claude", "projects")}
	cfg := o.getenv("XDG_CONFIG_HOME")
	if cfg == "" {
		cfg = filepath.Join(o.Home, ".config")
	}
	return append(roots, filepath.Join(cfg, "claude", "projects"))
}

// claudeDirName is the project directory name Claude Code gives dir.
func claudeDirName(dir string) string {
	b := []byte(dir)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

func claudeCandidates(o Options) ([]candidate, []string) {
	var cands []candidate
	var searched []string
	keep := func(name string) bool {
		return strings.HasSuffix(name, ".jsonl") && !strings.HasPrefix(name, "agent-")
	}
	describe := func(c *candidate) (Session, bool) { return describeClaude(o, c) }
	for _, root := range claudeRoots(o) {
		for _, n := range claudeNames(o, root) {
			dir := filepath.Join(root, n)
			searched = append(searched, dir)
			cands = append(cands, files(Claude, dir, keep, describe)...)
		}
	}
	return cands, searched
}

// claudeNames are the project folders under root that may hold Dir's
// transcripts (every one with All), each once.
func claudeNames(o Options, root string) []string {
	var names []string
	if o.All {
		ents, _ := os.ReadDir(root)
		for _, e := range ents {
			if e.IsDir() {
				names = append(names, e.Name())
			}
		}
		return names
	}
	if n := o.getenv("CLAUDE_CODE_PROJECT_DIR_NAME"); n != "" && !strings.ContainsAny(n, `/\`) && n != "." && n != ".." {
		names = append(names, n)
	}
	for _, d := range o.dirs() {
		n := claudeDirName(d)
		if len(n) <= claudeMaxName {
			names = append(names, n)
			continue
		}
		// Cut and given a hash: every directory with the same start.
		ents, _ := os.ReadDir(root)
		for _, e := range ents {
			if e.IsDir() && strings.HasPrefix(e.Name(), n[:claudeMaxName]) {
				names = append(names, e.Name())
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// describeClaude reads a transcript's first lines: the directory it ran
// in, when it started and the first prompt typed. Transcripts may start
// with bookkeeping records (summary, file-history-snapshot,
// queue-operation, progress) that have neither.
func describeClaude(o Options, c *candidate) (Session, bool) {
	s := c.session()
	s.ID = strings.TrimSuffix(filepath.Base(c.path), ".jsonl")
	h, err := openHead(c.path)
	if err != nil {
		return s, false
	}
	defer h.close()
	var fallback string // a slash command, a queued prompt or a summary title
	seenRecord := false
	for {
		line, ok := h.next()
		if !ok {
			break
		}
		r, ok := record(line)
		if !ok {
			continue
		}
		if s.Started.IsZero() {
			s.Started = parseTime(r.Get("timestamp").String())
		}
		if cwd := r.Get("cwd"); s.Cwd == "" && cwd.Type == gjson.String {
			s.Cwd = cwd.String()
		}
		typ := r.Get("type").String()
		if (typ == "user" || typ == "assistant") && !seenRecord {
			seenRecord = true
			if r.Get("isSidechain").Bool() {
				return s, false // a subagent's transcript
			}
		}
		switch typ {
		case "user":
			if s.Prompt != "" || r.Get("isMeta").Bool() || r.Get("isSidechain").Bool() || r.Get("isCompactSummary").Bool() {
				break
			}
			text := claudeText(r.Get("message.content"))
			switch {
			case text == "":
			case strings.HasPrefix(text, "<command-name>"):
				if fallback == "" {
					fallback = claudeCommand(text)
				}
			case strings.HasPrefix(text, "<local-command-"), strings.HasPrefix(text, "[Request interrupted"):
			default:
				s.Prompt = oneLine(text)
			}
		case "queue-operation":
			if fallback == "" && r.Get("operation").String() == "enqueue" {
				fallback = r.Get("content").String()
			}
		case "summary":
			if fallback == "" {
				fallback = r.Get("summary").String()
			}
		}
		if s.Prompt != "" && s.Cwd != "" {
			break
		}
	}
	if s.Cwd != "" && !o.isDir(s.Cwd) {
		return s, false
	}
	if s.Prompt == "" {
		s.Prompt = oneLine(fallback)
	}
	return s, true
}

// claudeText is the text of a message's content: a string, or its text
// blocks.
func claudeText(content gjson.Result) string {
	if content.Type == gjson.String {
		return strings.TrimSpace(content.String())
	}
	var parts []string
	content.ForEach(func(_, b gjson.Result) bool {
		if b.Get("type").String() == "text" {
			parts = append(parts, b.Get("text").String())
		}
		return true
	})
	return strings.TrimSpace(strings.Join(parts, " "))
}

// claudeCommand turns "<command-name>/model</command-name>…<command-args>x</command-args>"
// into "/model x".
func claudeCommand(text string) string {
	name := between(text, "<command-name>", "</command-name>")
	args := between(text, "<command-args>", "</command-args>")
	return strings.TrimSpace(name + " " + args)
}

func between(s, open, close string) string {
	_, after, ok := strings.Cut(s, open)
	if !ok {
		return ""
	}
	in, _, _ := strings.Cut(after, close)
	return in
}
