package fswait

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

func waitWake(t *testing.T, s *Sub, what string) {
	t.Helper()
	select {
	case <-s.C():
	case <-time.After(5 * time.Second):
		t.Fatalf("no wake-up for %s", what)
	}
}

func noWake(t *testing.T, s *Sub, what string) {
	t.Helper()
	select {
	case <-s.C():
		t.Fatalf("woken by %s", what)
	case <-time.After(100 * time.Millisecond):
	}
}

// A subscription to one name wakes for that name only: its creation, a
// write, its replacement; another file of the directory leaves it asleep.
func TestWatchOneName(t *testing.T) {
	t.Parallel()
	h := New()
	d := t.TempDir()
	s, err := h.Watch(d, "a.jsonl")
	if err != nil {
		t.Skipf("no notifications here: %v", err)
	}
	defer s.Close()
	a := filepath.Join(d, "a.jsonl")
	os.WriteFile(filepath.Join(d, "b.jsonl"), []byte("x\n"), 0o644)
	noWake(t, s, "another file")
	os.WriteFile(a, []byte("x\n"), 0o644)
	waitWake(t, s, "creation")
	time.Sleep(50 * time.Millisecond)
	for len(s.C()) > 0 {
		<-s.C()
	}
	f, _ := os.OpenFile(a, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("more\n")
	f.Close()
	waitWake(t, s, "a write")
	os.Rename(filepath.Join(d, "b.jsonl"), a)
	waitWake(t, s, "a replacement")
	if h.Watching() != 1 {
		t.Errorf("watching %d directories, want 1", h.Watching())
	}
	s.Close()
	if h.Watching() != 0 {
		t.Errorf("still watching %d directories after the last Close", h.Watching())
	}
}

// A subscription to every entry says which changed; two subscriptions
// share one watch of the directory.
func TestWatchEveryEntry(t *testing.T) {
	t.Parallel()
	h := New()
	d := t.TempDir()
	all, err := h.Watch(d, "")
	if err != nil {
		t.Skipf("no notifications here: %v", err)
	}
	defer all.Close()
	one, err := h.Watch(d, "x")
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	if h.Watching() != 1 {
		t.Errorf("watching %d directories, want 1", h.Watching())
	}
	os.Mkdir(filepath.Join(d, "sub"), 0o755)
	os.WriteFile(filepath.Join(d, "f"), nil, 0o644)
	waitWake(t, all, "two new entries")
	deadline := time.Now().Add(5 * time.Second)
	var got []string
	for len(got) < 2 && time.Now().Before(deadline) {
		p, _ := all.Changed()
		for _, x := range p {
			if !slices.Contains(got, x) {
				got = append(got, x)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	slices.Sort(got)
	if want := []string{filepath.Join(d, "f"), filepath.Join(d, "sub")}; !slices.Equal(got, want) {
		t.Errorf("changed %q, want %q", got, want)
	}
	noWake(t, one, "other names")
}

// A directory that goes away tells its subscribers so, and can be
// watched again once it is back.
func TestWatchGone(t *testing.T) {
	t.Parallel()
	h := New()
	d := filepath.Join(t.TempDir(), "d")
	os.Mkdir(d, 0o755)
	s, err := h.Watch(d, "")
	if err != nil {
		t.Skipf("no notifications here: %v", err)
	}
	os.Remove(d)
	deadline := time.Now().Add(5 * time.Second)
	for !s.Gone() {
		if time.Now().After(deadline) {
			t.Fatal("the removed directory's subscriber was not told")
		}
		<-s.C()
	}
	s.Close()
	if _, err := h.Watch(d, ""); err == nil {
		t.Error("watched a directory that does not exist")
	}
	os.Mkdir(d, 0o755)
	s, err = h.Watch(d, "")
	if err != nil {
		t.Fatalf("watching it again: %v", err)
	}
	defer s.Close()
	os.WriteFile(filepath.Join(d, "f"), nil, 0o644)
	waitWake(t, s, "a file in the directory watched again")
}
