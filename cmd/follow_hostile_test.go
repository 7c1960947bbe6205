package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startFollowErr is startFollow with stderr kept.
func startFollowErr(t *testing.T, args ...string) (*followRun, *safeBuffer) {
	t.Helper()
	fr := startFollow(t, args...)
	return fr, fr.err
}

func (fr *followRun) wait(t *testing.T, what string, want int) {
	t.Helper()
	select {
	case code := <-fr.done:
		if code != want {
			t.Errorf("%s: exit %d, want %d:\n%s", what, code, want, fr.out.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still running after 10 s:\n%s", what, fr.out.String())
	}
}

// A FIFO whose writer is silent: SIGINT and SIGTERM still end --follow
// (the read held the lock Close waited for).
func TestFollowFIFOSignals(t *testing.T) {
	t.Parallel()
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		path := filepath.Join(t.TempDir(), "run.fifo")
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skip("no FIFO:", err)
		}
		w, err := os.OpenFile(path, os.O_RDWR, 0) // a writer that stays silent
		if err != nil {
			t.Fatal(err)
		}
		w.WriteString((&cs{}).init().text("msg_1", "Before the silence.").String())
		fr, _ := startFollowErr(t, "-o", "plain", path)
		waitFor(t, "the text", func() bool { return strings.Contains(fr.out.String(), "Before the silence.") })
		fr.sig <- sig
		want := ExitInterrupted
		if sig == syscall.SIGTERM {
			want = ExitTerminated
		}
		fr.wait(t, sig.String(), want)
		w.Close()
	}
}

// A last line that is a complete JSON value without a newline is a line
// once the file stops growing: the run's result ends --follow.
func TestFollowLastLineWithoutNewline(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	s := (&cs{}).init().text("msg_1", "All good.").result(true, "All good.").String()
	os.WriteFile(path, []byte(strings.TrimSuffix(s, "\n")), 0o644)
	tee := filepath.Join(t.TempDir(), "tee.jsonl")
	fr, _ := startFollowErr(t, "-o", "plain", "--tee", tee, path)
	fr.wait(t, "no newline", ExitOK)
	if strings.Contains(fr.out.String(), "cut off") || !strings.Contains(fr.out.String(), "All good.") {
		t.Errorf("output:\n%s", fr.out.String())
	}
	if b, _ := os.ReadFile(tee); string(b) != strings.TrimSuffix(s, "\n") {
		t.Errorf("--tee is not the file: the newline --follow added was copied")
	}
}

// Truncation and rotation after a partial last line: the old line ends
// there, the new file starts clean (its first line parsed), with a notice.
func TestFollowRotationAndTruncation(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"rotate", "truncate"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "run.jsonl")
		os.WriteFile(path, []byte((&cs{}).init().text("msg_1", "Old file. "+strings.Repeat("padding ", 500)).String()+`{"type":"assistant","mess`), 0o644)
		fr, stderr := startFollowErr(t, "-o", "plain", path)
		waitFor(t, "the old file", func() bool { return strings.Contains(fr.out.String(), "Old file.") })
		time.Sleep(30 * time.Millisecond) // the partial line read
		next := (&cs{}).line(map[string]any{"type": "system", "subtype": "init", "model": "m2", "session_id": "sess-2"}).
			text("msg_2", "New file.").result(true, "New file.").String()
		if how == "rotate" {
			if err := os.Rename(path, path+".1"); err != nil {
				t.Fatal(err)
			}
		}
		os.WriteFile(path, []byte(next), 0o644) // shorter than the old file: truncation
		fr.wait(t, how, ExitOK)
		out := fr.out.String()
		if !strings.Contains(out, "● session sess-2") || !strings.Contains(out, "New file.") {
			t.Errorf("%s: the new file's first line was glued to the old partial line:\n%s", how, out)
		}
		if !strings.Contains(stderr.String(), "--follow: ") {
			t.Errorf("%s: no notice on stderr: %q", how, stderr.String())
		}
	}
}
