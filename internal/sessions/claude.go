package sessions

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// Claude Code keeps one transcript per session in
// <config>/projects/<project dir>/<session id>.jsonl, where <config> is
// $CLAUDE_CONFIG_DIR, else ~/.claude (and ~/.config/claude on some
// installs), and <project dir> is the session's directory (symbolic links
// resolved, in Unicode's composed form, NFC) with every UTF-16 code unit
// other than an ASCII letter or digit turned into "-" (JavaScript's
// replace(/[^a-zA-Z0-9]/g, "-")): "/tmp/café" is "-tmp-caf-", "/tmp/项目"
// "-tmp---", an emoji two dashes. A name over 200 characters is cut there
// and given a hash. Subagent transcripts (agent-*.jsonl beside it, or in
// <session id>/subagents/) are not sessions of their own.
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

// claudeDirName is the project directory name Claude Code gives dir: one
// "-" per UTF-16 code unit of anything but an ASCII letter or digit.
func claudeDirName(dir string) string {
	b := make([]byte, 0, len(dir))
	for _, r := range dir {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
			b = append(b, byte(r))
		case r > 0xFFFF:
			b = append(b, "--"...) // a surrogate pair
		default:
			b = append(b, '-') // (invalid UTF-8 too: one U+FFFD)
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
		seen := map[string]bool{}
		for level := range o.want().dirs {
			for _, n := range claudeNamesAt(o, root, level) {
				if seen[n] {
					continue
				}
				seen[n] = true
				dir := filepath.Join(root, n)
				if level == 0 {
					searched = append(searched, dir)
				}
				cands = append(cands, files(Claude, dir, level, keep, describe)...)
			}
		}
	}
	return cands, searched
}

// claudeNames are the project folders under root that may hold Dir's
// transcripts (every one with All), each once.
func claudeNames(o Options, root string) []string { return claudeNamesAt(o, root, 0) }

// claudeNamesAt are the project folders under root that may hold the
// transcripts of the wanted directory of level (every one with All, at
// level 0), each once.
func claudeNamesAt(o Options, root string, level int) []string {
	var names []string
	if o.All {
		if level > 0 {
			return nil
		}
		ents, _ := os.ReadDir(root)
		for _, e := range ents {
			if e.IsDir() {
				names = append(names, e.Name())
			}
		}
		return names
	}
	if n := o.getenv("CLAUDE_CODE_PROJECT_DIR_NAME"); level == 0 && n != "" && !strings.ContainsAny(n, `/\`) && n != "." && n != ".." {
		names = append(names, n)
	}
	var ents []os.DirEntry
	for _, d := range o.want().spellings[level] {
		n := claudeDirName(d)
		if len(n) <= claudeMaxName {
			names = append(names, n)
			continue
		}
		// Cut and given a hash: every directory with the same start.
		if ents == nil {
			ents, _ = os.ReadDir(root)
		}
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
// in, when it started and the first prompt typed (parseHead). Transcripts
// may start with bookkeeping records (summary, file-history-snapshot,
// queue-operation, progress) that have neither; a summary's title or a
// queued prompt stands for a prompt where none comes.
func describeClaude(o Options, c *candidate) (Session, bool) {
	s := c.session()
	s.ID = strings.TrimSuffix(filepath.Base(c.path), ".jsonl")
	h, err := openHead(c.path)
	if err != nil {
		return s, false
	}
	defer h.close()
	var fallback string // a queued prompt or a summary title
	seenRecord, side := false, false
	records := false // a record of a transcript was read (not junk)
	p := parseHead(Claude, h, nil, func(line []byte) bool {
		r, ok := record(line)
		if !ok {
			return true
		}
		if !records {
			records = claudeRecord(r)
		}
		if s.Started.IsZero() {
			s.Started = parseTime(r.Get("timestamp").String())
		}
		if cwd := r.Get("cwd"); s.Cwd == "" && cwd.Type == gjson.String {
			s.Cwd = cwd.String()
		}
		switch typ := r.Get("type").String(); typ {
		case "user", "assistant":
			if !seenRecord {
				seenRecord = true
				side = r.Get("isSidechain").Bool() // a subagent's transcript
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
		return !side
	})
	if !records || side {
		return s, false
	}
	if p.cwd != "" {
		s.Cwd = p.cwd
	}
	if s.Cwd != "" {
		// The directory it records decides (the folder's name is lossy).
		if s.level = o.levelOf(s.Cwd); s.level < 0 {
			return s, false
		}
	}
	s.Prompt = cmp.Or(p.prompt, p.command, oneLine(fallback))
	return s, true
}

// claudeRecord reports that a line is a transcript's record, not junk
// that happens to start with "{": it has one of the keys every record
// has one of, before its bulk (a line cut at the reading budget too).
func claudeRecord(r gjson.Result) bool {
	for _, k := range []string{"type", "parentUuid", "sessionId", "uuid", "leafUuid", "messageId"} {
		if r.Get(k).Exists() {
			return true
		}
	}
	return false
}
