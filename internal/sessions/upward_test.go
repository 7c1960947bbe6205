package sessions

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// In a project's subdirectory, Up finds the project's sessions: those of
// the nearest directory above that has some, up to the repository's root;
// Result.Dir says whose they are. The directory's own come first.
func TestUpToTheProject(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	proj := filepath.Join(h.dir, "src", "proj")
	sub := filepath.Join(proj, "cmd", "tool")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.write(".claude/projects/"+claudeDirName(proj)+"/p.jsonl", claudeFile(proj, "p", "project prompt"), 1)
	h.write(".codex/sessions/2026/11/22/rollout-2026-11-22T10-00-00-x.jsonl", codexFile(proj, "x", "codex project prompt"), 2)
	// Above the repository: not the project's.
	src := filepath.Join(h.dir, "src")
	h.write(".claude/projects/"+claudeDirName(src)+"/s.jsonl", claudeFile(src, "s", "above the repository"), 3)

	o := h.opts(sub)
	if r := List(o); len(r.Sessions) != 0 {
		t.Errorf("without Up: %v", summary(r.Sessions))
	}
	o.Up = true
	r := List(o)
	want(t, r.Sessions, "codex x codex project prompt", "claude p project prompt")
	if r.Dir != proj {
		t.Errorf("Dir %q, want %q", r.Dir, proj)
	}
	l := Latest(o)
	want(t, l.Sessions, "codex x codex project prompt")
	if l.Dir != proj {
		t.Errorf("Latest: Dir %q", l.Dir)
	}

	// The nearest with sessions wins, and a directory's own come first.
	mid := filepath.Join(proj, "cmd")
	h.write(".claude/projects/"+claudeDirName(mid)+"/m.jsonl", claudeFile(mid, "m", "in cmd"), 0)
	r = List(o)
	want(t, r.Sessions, "claude m in cmd")
	if r.Dir != mid {
		t.Errorf("Dir %q, want %q", r.Dir, mid)
	}
	want(t, Latest(o).Sessions, "claude m in cmd")
	h.write(".claude/projects/"+claudeDirName(sub)+"/own.jsonl", claudeFile(sub, "own", "its own"), -5)
	r = List(o)
	want(t, r.Sessions, "claude own its own")
	if r.Dir != sub {
		t.Errorf("Dir %q", r.Dir)
	}
	want(t, Latest(o).Sessions, "claude own its own")
}

// Outside a repository, Up stops below the home directory and the root.
func TestParents(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home := filepath.Join(root, "home", "u")
	deep := filepath.Join(home, "a", "b", "c")
	os.MkdirAll(deep, 0o755)
	if got, want := parents(deep, home), []string{filepath.Join(home, "a", "b"), filepath.Join(home, "a")}; !slices.Equal(got, want) {
		t.Errorf("parents = %q, want %q", got, want)
	}
	os.Mkdir(filepath.Join(home, "a", ".git"), 0o755)
	if got, want := parents(deep, home), []string{filepath.Join(home, "a", "b"), filepath.Join(home, "a")}; !slices.Equal(got, want) {
		t.Errorf("in a repository: parents = %q, want %q", got, want)
	}
	os.WriteFile(filepath.Join(deep, ".git"), []byte("gitdir: elsewhere\n"), 0o644) // a worktree
	if got := parents(deep, home); len(got) != 0 {
		t.Errorf("at a repository's root: parents = %q", got)
	}
	if got := parents("/", ""); len(got) != 0 {
		t.Errorf("parents of the root: %q", got)
	}
}
