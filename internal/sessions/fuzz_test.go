package sessions

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/sanitize"
)

// FuzzSessionFiles puts arbitrary bytes, under an arbitrary name, where
// each agent keeps its sessions, for a directory of an arbitrary name: no
// panic, every prompt listed is safe text, Latest is List's first, and a
// session listed is one of the directory's.
func FuzzSessionFiles(f *testing.F) {
	proj := "/work/proj"
	f.Add("s", claudeFile(proj, "s", "a prompt"), proj)
	f.Add("x\n\x1b]0;t\x07", codexFile(proj, "x\n\x1b[2J", "prompt\x1b[31m"), proj)
	f.Add("café", claudeFile("/tmp/café", "c", "p"), "/tmp/café")
	f.Add("g", geminiFile("g", "hi"), proj)
	f.Add("e", "", proj)
	f.Add("b", "\x7fELF\x00{\n{\"type\":", "/tmp/项目/😀")
	f.Add("big", `{"type":"session_meta","payload":{"id":"i","instructions":"`+strings.Repeat("i", 5000)+`","cwd":"/work/proj"}}`, proj)
	f.Fuzz(func(t *testing.T, name, content, dir string) {
		if name == "" || strings.ContainsAny(name, "/\\\x00") || name == "." || name == ".." || !strings.HasPrefix(dir, "/") || strings.ContainsRune(dir, 0) {
			return
		}
		h := newHome(t)
		dir = filepath.Clean(dir)
		h.write(".claude/projects/"+claudeDirName(dir)+"/"+name+".jsonl", content, 1)
		h.write(".codex/sessions/2026/11/22/rollout-"+name+".jsonl", content, 2)
		h.write(".gemini/tmp/"+sha(dir)+"/chats/session-"+name+".json", content, 3)
		for _, up := range []bool{false, true} {
			o := h.opts(dir)
			o.Up = up
			l := List(o)
			for _, s := range l.Sessions {
				if !sanitize.Clean(s.Prompt) || strings.ContainsAny(s.Prompt, "\n\t") {
					t.Fatalf("prompt %q", s.Prompt)
				}
				if s.Cwd != "" && !up && filepath.Clean(s.Cwd) != dir && !sameDir(s.Cwd, dir) {
					t.Fatalf("a session of %q listed for %q", s.Cwd, dir)
				}
			}
			r := Latest(o)
			if len(l.Sessions) == 0 != (len(r.Sessions) == 0) || len(r.Sessions) > 0 && (r.Sessions[0].Path != l.Sessions[0].Path || r.Dir != l.Dir) {
				t.Fatalf("Latest %v (%q), List %v (%q)", summary(r.Sessions), r.Dir, summary(l.Sessions), l.Dir)
			}
		}
	})
}

// sameDir: a and b are spellings of one directory (composed or not).
func sameDir(a, b string) bool {
	for _, x := range spellings(filepath.Clean(b)) {
		if x == filepath.Clean(a) {
			return true
		}
	}
	return false
}
