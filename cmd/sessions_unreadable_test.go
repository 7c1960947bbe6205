package cmd

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/sessions"
)

// TestSessionsUnreadableFolder: a Claude project folder of the current
// directory that cannot be read (here a file where the folder should be;
// as a user other than root, also one with no permissions) is named on
// stderr with its problem, not passed over as a folder with no sessions.
func TestSessionsUnreadableFolder(t *testing.T) {
	h := newFakeHome(t)
	folder := filepath.Join(h.home, ".claude", "projects", projDir(h.proj))
	if err := os.MkdirAll(filepath.Dir(folder), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(folder, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := h.cli("sessions").run(t)
	want := filepath.Join("~", ".claude", "projects", projDir(h.proj)) + ": cannot read claude's sessions folder: not a directory"
	if r.code != ExitFailed || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q; want %q", r.code, r.stderr, want)
	}
	if os.Geteuid() == 0 {
		return // (root reads every folder)
	}
	if err := os.Remove(folder); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(folder, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(folder, 0o755) })
	r = h.cli("sessions").run(t)
	if !strings.Contains(r.stderr, "cannot read claude's sessions folder: permission denied") {
		t.Errorf("no permissions: stderr %q", r.stderr)
	}
}

// TestUnreadableFolders: each folder that exists but cannot be read is
// said once, the permission problem with the command that shows it; a
// folder that does not exist and one that is read are not.
func TestUnreadableFolders(t *testing.T) {
	t.Parallel()
	readDir := func(dir string) ([]fs.DirEntry, error) {
		switch filepath.Base(dir) {
		case "denied":
			return nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrPermission}
		case "missing":
			return nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrNotExist}
		}
		return nil, nil
	}
	got := unreadableFolders("/home/u", []sessions.Searched{
		{Agent: "claude", Dir: "/home/u/.claude/projects/denied"},
		{Agent: "codex", Dir: "/home/u/.codex/missing"},
		{Agent: "gemini", Dir: "/home/u/.gemini/tmp/fine"},
	}, readDir)
	want := "~/.claude/projects/denied: cannot read claude's sessions folder: permission denied" +
		" (its sessions are not listed: see its owner and permissions, ls -ld ~/.claude/projects/denied)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
