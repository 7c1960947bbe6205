package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// putAt writes a session file under the fake home, last written ago
// before now (the real clock: watch compares file times with it).
func (h *fakeHome) putAt(rel, content string, ago time.Duration) string {
	h.t.Helper()
	p := filepath.Join(h.home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
	mt := time.Now().Add(-ago)
	if err := os.Chtimes(p, mt, mt); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// startWatch runs agentfmt watch in the fake home, in the background.
// tune changes the environment (nil: nothing).
func (h *fakeHome) startWatch(tune func(*Env), args ...string) *followRun {
	return startRun(func(env *Env) {
		h.env(env)
		if tune != nil {
			tune(env)
		}
	}, append([]string{"watch"}, args...)...)
}

// env makes the fake home the environment's HOME.
func (h *fakeHome) env(env *Env) {
	env.Getenv = func(k string) string { return map[string]string{"HOME": h.home}[k] }
	env.Getwd = func() (string, error) { return h.dir, nil }
}

// tagged reports a line of plain output of several streams that is
// stream tag's and holds text.
func tagged(out, tag, text string) bool {
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, tag); ok {
			if _, line, ok := strings.Cut(rest, "│ "); ok && strings.TrimLeft(rest[:strings.Index(rest, "│")], " ") == "" && strings.Contains(line, text) {
				return true
			}
		}
	}
	return false
}

func claudeLine(cwd, id, uuid, text string) string {
	return `{"parentUuid":"a1","isSidechain":false,"userType":"external","cwd":"` + cwd + `","sessionId":"` + id + `","version":"2.0.76","message":{"model":"claude-haiku-4-5","id":"msg_` + uuid + `","type":"message","role":"assistant","content":[{"type":"text","text":"` + text + `"}],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":1}},"type":"assistant","uuid":"` + uuid + `","timestamp":"2026-11-22T10:01:00.000Z"}` + "\n"
}

// TestWatch: in a project directory with a fake home, watch follows the
// live Claude session (its new lines appear), picks up a Codex session
// that starts while it watches (in a day folder made then), leaves alone
// a session last written two days ago and another project's, and ends
// with 130 on Ctrl-C, which stops the watching, not the sessions: none is
// shown interrupted, and stderr says so.
func TestWatch(t *testing.T) {
	t.Parallel()
	for _, notify := range []bool{true, false} {
		t.Run(map[bool]string{true: "notifications", false: "polling"}[notify], func(t *testing.T) {
			t.Parallel()
			tune := func(env *Env) { quick(env).PollFiles, env.WatchPoll = !notify, 20*time.Millisecond }
			h := newFakeHome(t)
			live := h.putAt(".claude/projects/"+projDir(h.proj)+"/c-live.jsonl", transcript(h.proj, "c-live", "live claude prompt"), 2*time.Minute)
			h.putAt(".claude/projects/"+projDir(h.proj)+"/c-old.jsonl", transcript(h.proj, "c-old", "old claude prompt"), 48*time.Hour)
			h.putAt(".codex/sessions/2026/11/22/rollout-2026-11-22T11-00-00-x-other.jsonl", rollout(h.other, "x-other", "elsewhere"), time.Minute)
			fr := h.startWatch(tune, "-o", "plain")
			waitFor(t, "the live session", func() bool { return tagged(fr.out.String(), "claude·c-li", "› live claude prompt") })
			appendTo(t, live, claudeLine(h.proj, "c-live", "a2", "Appended live."))
			waitFor(t, "its new line", func() bool { return tagged(fr.out.String(), "claude·c-li", "Appended live.") })
			h.putAt(".codex/sessions/2099/01/02/rollout-2099-01-02T10-00-00-x-new.jsonl", rollout(h.proj, "x-new", "new codex prompt"), 0)
			waitFor(t, "the codex session that started", func() bool { return tagged(fr.out.String(), "codex·x-ne", "› new codex prompt") })
			fr.interrupt(t, "watch")
			out := fr.out.String()
			if strings.Contains(out, "old claude prompt") || strings.Contains(out, "elsewhere") {
				t.Errorf("an old or other project's session replayed:\n%s", out)
			}
			if strings.Contains(out, "interrupted") || !strings.Contains(fr.err.String(), "watching stopped; the sessions are left as they were") {
				t.Errorf("Ctrl-C taken as the sessions' end:\n%s\nstderr: %s", out, fr.err.String())
			}
		})
	}
}
