package sessions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Claude Code names a project's folder by replacing every UTF-16 code
// unit of its directory that is not an ASCII letter or digit with "-",
// after putting the directory in composed form (NFC).
func TestClaudeNonASCIIDirectory(t *testing.T) {
	t.Parallel()
	for dir, name := range map[string]string{
		"/tmp/café":         "-tmp-caf-",
		"/tmp/项目":           "-tmp---",
		"/tmp/a😀b":          "-tmp-a--b",
		"/home/u/my proj.x": "-home-u-my-proj-x",
		"C:\\Users\\ü":      "C--Users--",
		"/tmp/\xff":         "-tmp--",
	} {
		if got := claudeDirName(dir); got != name {
			t.Errorf("claudeDirName(%q) = %q, want %q", dir, got, name)
		}
	}
	h := newHome(t)
	for i, dir := range []string{"/tmp/café", "/tmp/项目", "/tmp/a😀b"} {
		h.write(".claude/projects/"+claudeDirName(dir)+"/s.jsonl", claudeFile(dir, "s", "prompt in "+dir), i)
		want(t, List(h.opts(dir)).Sessions, "claude s prompt in "+dir)
		if got := Latest(h.opts(dir)).Sessions; len(got) != 1 {
			t.Errorf("%s: --latest finds %d", dir, len(got))
		}
	}
	// A directory given decomposed (as macOS may): Claude Code named the
	// folder, and recorded the directory, composed.
	nfd := "/tmp/cafe\u0301"
	want(t, List(h.opts(nfd)).Sessions, "claude s prompt in /tmp/café")
	// Cut at 200 code units: "é" is one.
	long := "/tmp/" + strings.Repeat("é", 230)
	h.write(".claude/projects/"+claudeDirName(long)[:200]+"-k3j2/l.jsonl", claudeFile(long, "l", "long"), 9)
	want(t, List(h.opts(long)).Sessions, "claude l long")
}

// A file in a project folder that is not a transcript is no session: an
// empty one, binary junk, JSON of something else.
func TestJunkIsNoSession(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	proj := "/work/proj"
	h.write(".claude/projects/-work-proj/empty.jsonl", "", 1)
	h.write(".claude/projects/-work-proj/blank.jsonl", "\n\n\r\n", 2)
	h.write(".claude/projects/-work-proj/binary.jsonl", "\x7fELF\x02\x01\x01\x00{\x00\xff\xfe\n{garbage\n\x00\x00", 3)
	h.write(".claude/projects/-work-proj/other.jsonl", "{}\n{\"name\":\"x\",\"version\":1}\n", 4)
	h.write(".claude/projects/-work-proj/real.jsonl", claudeFile(proj, "real", "a real one"), 0)
	h.write(".codex/sessions/2026/11/22/rollout-2026-11-22T10-00-00-e.jsonl", "", 5)
	h.write(".codex/sessions/2026/11/22/rollout-2026-11-22T10-00-00-b.jsonl", "\x00\x01junk\n", 6)
	h.write(".gemini/tmp/"+sha(proj)+"/chats/session-2026-11-22T10-00-e.json", "", 7)
	h.write(".gemini/tmp/"+sha(proj)+"/chats/session-2026-11-22T10-00-b.jsonl", "\xff\xfe{\n", 8)
	want(t, List(h.opts(proj)).Sessions, "claude real a real one")
	want(t, Latest(h.opts(proj)).Sessions, "claude real a real one")
}

// ~/.codex/sessions may be a symbolic link to a folder kept elsewhere: it
// is followed; links below it are not (a loop is harmless).
func TestSymlinkedSessionFolders(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	proj := "/work/proj"
	h.write("elsewhere/codex/2026/11/22/rollout-2026-11-22T10-00-00-x.jsonl", codexFile(proj, "x", "codex via a link"), 1)
	h.write("elsewhere/claude/-work-proj/c.jsonl", claudeFile(proj, "c", "claude via a link"), 2)
	if err := os.MkdirAll(filepath.Join(h.dir, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(h.dir, "elsewhere", "codex"), filepath.Join(h.dir, ".codex", "sessions")); err != nil {
		t.Skip("no symbolic links here")
	}
	os.MkdirAll(filepath.Join(h.dir, ".claude"), 0o755)
	os.Symlink(filepath.Join(h.dir, "elsewhere", "claude"), filepath.Join(h.dir, ".claude", "projects"))
	// Loops: a day folder linking to its parent, the root to itself.
	os.Symlink("..", filepath.Join(h.dir, "elsewhere", "codex", "2026", "loop"))
	os.Symlink(filepath.Join(h.dir, ".codex", "sessions"), filepath.Join(h.dir, "elsewhere", "codex", "self"))
	want(t, List(h.opts(proj)).Sessions, "claude c claude via a link", "codex x codex via a link")

	// A root that is a link to itself: nothing, and no hang.
	h2 := newHome(t)
	os.MkdirAll(filepath.Join(h2.dir, ".codex"), 0o755)
	os.Symlink(filepath.Join(h2.dir, ".codex", "sessions"), filepath.Join(h2.dir, ".codex", "sessions"))
	want(t, List(h2.opts(proj)).Sessions)
}

// A rollout is told from its first kilobytes when they hold its
// directory; a directory cut at their end, or coming after them, is read
// from the whole line.
func TestCodexDirectoryAnywhereInTheFirstLine(t *testing.T) {
	t.Parallel()
	proj := "/work/proj"
	for _, pad := range []int{headChunk - 60, headChunk - 45, headChunk - 40, headChunk - 30, headChunk, 3 * headChunk} {
		h := newHome(t)
		before := `{"timestamp":"2026-11-22T10:00:00.000Z","type":"session_meta","payload":{"id":"p","pad":"` + strings.Repeat("p", pad) + `","cwd":"` + proj + `"}}` + "\n"
		after := `{"timestamp":"2026-11-22T10:00:00.000Z","type":"session_meta","payload":{"id":"q","instructions":"` + strings.Repeat("i", pad) + `","cwd":"` + proj + `"}}` + "\n"
		h.write(".codex/sessions/2026/11/22/rollout-2026-11-22T10-00-00-p.jsonl", before+strings.SplitN(codexFile(proj, "x", "padded"), "\n", 2)[1], 1)
		h.write(".codex/sessions/2026/11/22/rollout-2026-11-22T10-00-00-q.jsonl", after, 2)
		if got := List(h.opts(proj)).Sessions; len(got) != 2 {
			t.Errorf("pad %d: %v", pad, summary(got))
		}
	}
}
