package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// endsBy waits for a follow run to end by itself, with want.
func (fr *followRun) endsBy(t *testing.T, want int) {
	t.Helper()
	select {
	case code := <-fr.done:
		if code != want {
			t.Errorf("exit %d, want %d:\n%s", code, want, fr.out.String())
		}
	case <-time.After(15 * time.Second):
		fr.interrupt(t, "--follow")
		t.Fatalf("--follow did not end by itself:\n%s", fr.out.String())
	}
}

// TestFollowCopytruncateHole: a log written with > (not appending) is
// copied and truncated (logrotate's copytruncate); its writer goes on at
// its old offset, leaving a hole of NULs before its next line. The line
// is rendered, with no NUL and no raw JSON shown.
func TestFollowCopytruncateHole(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	lines := runLog("hole", 2, true)
	os.WriteFile(path, []byte(strings.Join(lines[:3], "")), 0o644)
	fr := startFollow(t, "-o", "plain", path)
	waitFor(t, "the first step", func() bool { return strings.Contains(fr.out.String(), "Step 1 of hole.") })
	st, _ := os.Stat(path)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the truncation seen", func() bool { return strings.Contains(fr.err.String(), "reading it from the start") })
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte(strings.Join(lines[3:], "")), st.Size())
	f.Close()
	fr.endsBy(t, 0)
	out := fr.out.String()
	if !strings.Contains(out, "Step 2 of hole.") || strings.Contains(out, "␀") || strings.Contains(out, `{"type"`) {
		t.Errorf("the line after the hole not rendered:\n%s", out)
	}
}

// TestFollowRestartedPastOldSize: the file is written again from its
// start by a new run (agent … > run.jsonl again), longer than the old one
// by the time agentfmt looks: the new run is read from its start, all of
// it, and no half line is shown raw.
func TestFollowRestartedPastOldSize(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	old := runLog("oldrun", 1, true)
	os.WriteFile(path, []byte(strings.Join(old[:3], "")), 0o644)
	fr := startRun(func(env *Env) { env.PollFiles, env.FollowPoll = true, 300*time.Millisecond }, "--follow", "-o", "plain", path)
	waitFor(t, "the old run", func() bool { return strings.Contains(fr.out.String(), "Step 1 of oldrun.") })
	os.WriteFile(path, []byte(strings.Join(runLog("newrun", 3, true), "")), 0o644)
	fr.endsBy(t, 0)
	out := fr.out.String()
	for _, want := range []string{"session newrun", "Step 1 of newrun.", "Step 3 of newrun.", "── ✓ done"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q lost:\n%s", want, out)
		}
	}
	if strings.Contains(out, `":`) {
		t.Errorf("raw JSON shown:\n%s", out)
	}
	if !strings.Contains(fr.err.String(), "reading it from the start") {
		t.Errorf("stderr %q", fr.err.String())
	}
}

// TestFollowGeminiChatDocument: --follow of a Gemini CLI chat saved as one
// JSON document (written whole again at every save) shows it as it is and
// says it is not followed: a save does not show every answer again.
func TestFollowGeminiChatDocument(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "session-1.json")
	os.WriteFile(path, []byte(savedChat("g-1", "the gemini prompt")), 0o644)
	fr := startFollow(t, "-o", "plain", path)
	fr.endsBy(t, ExitIncomplete)
	if n := strings.Count(fr.out.String(), "the gemini prompt"); n != 1 {
		t.Errorf("the prompt shown %d times:\n%s", n, fr.out.String())
	}
	if !strings.Contains(fr.err.String(), "not followed") {
		t.Errorf("stderr %q", fr.err.String())
	}
}
