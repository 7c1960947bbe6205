package sessions

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// liveHome holds sessions of two projects, written at different times.
func liveHome(t *testing.T) (*home, string) {
	h := newHome(t)
	proj, other := "/work/proj", "/work/other"
	h.write(".claude/projects/-work-proj/c-old.jsonl", claudeFile(proj, "c-old", "two days ago"), -2*24*60)
	h.write(".claude/projects/-work-proj/c-live.jsonl", claudeFile(proj, "c-live", "live claude"), -2)
	h.write(".claude/projects/-work-other/c-other.jsonl", claudeFile(other, "c-other", "elsewhere"), -1)
	h.write(".codex/sessions/2026/11/22/rollout-2026-11-22T11-58-00-x1.jsonl", codexFile(proj, "x1", "live codex"), -3)
	h.write(".codex/sessions/2026/11/22/rollout-2026-11-22T11-59-00-x2.jsonl", codexFile(other, "x2", "elsewhere codex"), -1)
	h.write(".gemini/tmp/"+sha(other)+"/chats/session-2026-11-22T10-00-g2.json", geminiFile("g2", "elsewhere gemini"), -4)
	return h, proj
}

// TestListSince: with Since, only the files written since then are
// listed; with All, every project's.
func TestListSince(t *testing.T) {
	t.Parallel()
	h, proj := liveHome(t)
	o := h.opts(proj)
	o.Since = h.base.Add(-10 * time.Minute)
	want(t, List(o).Sessions, "claude c-live live claude", "codex x1 live codex")
	o.All = true
	want(t, List(o).Sessions,
		"claude c-other elsewhere", "codex x2 elsewhere codex", "claude c-live live claude", "codex x1 live codex", "gemini g2 elsewhere gemini")
}

// TestFind: a file that changed is found to be one of the directory's
// sessions or not, and a no is final when it will stay one.
func TestFind(t *testing.T) {
	t.Parallel()
	h, proj := liveHome(t)
	o := h.opts(proj)
	p := func(rel string) string { return filepath.Join(h.dir, rel) }
	for _, c := range []struct {
		rel       string
		ok, final bool
	}{
		{".claude/projects/-work-proj/c-live.jsonl", true, false},
		{".claude/projects/-work-other/c-other.jsonl", false, true},
		{".codex/sessions/2026/11/22/rollout-2026-11-22T11-58-00-x1.jsonl", true, false},
		{".codex/sessions/2026/11/22/rollout-2026-11-22T11-59-00-x2.jsonl", false, true},
		{".gemini/tmp/" + sha(proj) + "/chats/session-2026-11-22T10-00-g2.json", false, false}, // (not there)
		{".codex/sessions/2026/11/22/notes.txt", false, true},
		{".claude/projects/-work-proj/c-live/subagents/agent-a1.jsonl", false, true},
	} {
		if filepath.Ext(c.rel) == ".txt" || filepath.Base(c.rel) == "agent-a1.jsonl" {
			h.write(c.rel, "x\n", 0)
		}
		s, ok, final := Find(o, p(c.rel))
		if ok != c.ok || final != c.final {
			t.Errorf("%s: ok %v final %v, want %v %v", c.rel, ok, final, c.ok, c.final)
		}
		if ok && s.ID == "" {
			t.Errorf("%s: no id: %+v", c.rel, s)
		}
	}
	// A rollout being created: empty, then its first line half written,
	// then whole: not final until its first line says whose it is.
	path := p(".codex/sessions/2026/11/22/rollout-2026-11-22T12-00-00-x3.jsonl")
	whole := codexFile(proj, "x3", "new codex")
	for _, c := range []struct {
		content   string
		ok, final bool
	}{{"", false, false}, {whole[:20], false, false}, {whole, true, false}} {
		os.WriteFile(path, []byte(c.content), 0o644)
		if _, ok, final := Find(o, path); ok != c.ok || final != c.final {
			t.Errorf("%q: ok %v final %v, want %v %v", c.content, ok, final, c.ok, c.final)
		}
	}
	o.All = true
	if _, ok, _ := Find(o, p(".claude/projects/-work-other/c-other.jsonl")); !ok {
		t.Error("All: another project's transcript not found")
	}
}

// TestPlaces: the folders to watch, whether they exist or not; a place's
// folders down to its depth.
func TestPlaces(t *testing.T) {
	t.Parallel()
	h, proj := liveHome(t)
	var got []string
	for _, pl := range Places(h.opts(proj)) {
		rel, _ := filepath.Rel(h.dir, pl.Dir)
		got = append(got, pl.Agent+" "+rel)
	}
	for _, w := range []string{"claude .claude/projects/-work-proj", "codex .codex/sessions", "gemini .gemini/tmp/" + sha(proj) + "/chats"} {
		if !slices.Contains(got, w) {
			t.Errorf("no %q in %q", w, got)
		}
	}
	codex := Place{Codex, filepath.Join(h.dir, ".codex/sessions"), -1}
	if d := codex.Dirs(); len(d) != 4 || d[3] != filepath.Join(h.dir, ".codex/sessions/2026/11/22") {
		t.Errorf("codex folders %q", d)
	}
	all := h.opts(proj)
	all.All = true
	var dirs []string
	for _, pl := range Places(all) {
		if pl.Agent == Claude && pl.Depth == 1 {
			dirs = append(dirs, pl.Dirs()...)
		}
	}
	if !slices.Contains(dirs, filepath.Join(h.dir, ".claude/projects/-work-other")) {
		t.Errorf("All: claude folders %q", dirs)
	}
}
