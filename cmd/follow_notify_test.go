package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfmt/agentfmt/internal/fswait"
)

// followScenario follows a log that grows by a line and then ends with its
// run: both must be seen, and following must end by itself.
func followScenario(t *testing.T, tune func(*Env)) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	os.WriteFile(path, []byte((&cs{}).init().text("msg_1", "Backlog text.").String()), 0o644)
	fr := startRun(tune, "--follow", "-o", "plain", path)
	waitFor(t, "the backlog", func() bool { return strings.Contains(fr.out.String(), "Backlog text.") })
	appendTo(t, path, (&cs{}).text("msg_2", "Live text.").String())
	waitFor(t, "the live text", func() bool { return strings.Contains(fr.out.String(), "Live text.") })
	appendTo(t, path, (&cs{}).result(true, "Live text.").String())
	select {
	case code := <-fr.done:
		if code != 0 {
			t.Errorf("exit %d, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("--follow did not end with the run")
	}
}

// TestFollowWokenByNotifications: with polling made useless (an hour), a
// followed file's new line and its run's end are still seen at once: the
// follower sleeps on the file system's notifications, not on a timer.
func TestFollowWokenByNotifications(t *testing.T) {
	t.Parallel()
	if _, err := fswait.New().Watch(t.TempDir(), ""); err != nil {
		t.Skipf("no file notifications here: %v", err)
	}
	followScenario(t, func(env *Env) { env.FollowPoll, env.FollowSafety = time.Hour, time.Hour })
}

// TestFollowPollsWithoutNotifications: where the system gives none, the
// follower polls.
func TestFollowPollsWithoutNotifications(t *testing.T) {
	t.Parallel()
	followScenario(t, func(env *Env) { env.PollFiles = true })
}
