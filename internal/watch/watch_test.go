package watch

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
	"github.com/agentfmt/agentfmt/internal/sessions"
)

func projDir(dir string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return r
		}
		return '-'
	}, dir)
}

func putSession(t *testing.T, home, proj, id string, ago time.Duration) string {
	t.Helper()
	path := filepath.Join(home, ".claude", "projects", projDir(proj), id+".jsonl")
	os.MkdirAll(filepath.Dir(path), 0o755)
	line := `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"` + proj + `","sessionId":"` + id +
		`","version":"2.0.76","type":"user","message":{"role":"user","content":"hello"},"uuid":"u1","timestamp":"2026-11-22T10:00:00.000Z"}` + "\n"
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-ago)
	os.Chtimes(path, at, at)
	return path
}

// Scan hands each live session to Follow once; a session whose stream
// ended is handed again when it comes back to life, from where it was
// left; an old one never.
func TestScanFollowsLiveSessions(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	os.MkdirAll(proj, 0o755)
	live := putSession(t, home, proj, "live", time.Minute)
	putSession(t, home, proj, "old", 48*time.Hour)
	var mu sync.Mutex
	got := map[string]int64{}
	calls := 0
	w := New(Config{Sessions: sessions.Options{Home: home, Dir: proj, Getenv: func(string) string { return "" }},
		Since: 10 * time.Minute, Now: time.Now, Every: time.Hour, Stop: make(chan struct{}),
		Follow: func(s sessions.Session, from int64) {
			mu.Lock()
			defer mu.Unlock()
			got[filepath.Base(s.Path)] = from
			calls++
		}})
	if n := w.Scan(); n != 1 {
		t.Fatalf("Scan follows %d sessions, want 1 (%v)", n, got)
	}
	if n := w.Scan(); n != 1 || calls != 1 {
		t.Errorf("a second Scan: %d followed, %d calls", n, calls)
	}
	w.Ended(live, 42)
	w.Scan()
	if calls != 2 || got["live.jsonl"] != 42 {
		t.Errorf("a session come back to life: %d calls, from %v", calls, got)
	}
}
