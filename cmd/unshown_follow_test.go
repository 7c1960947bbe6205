package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unknownLines is n JSON lines of a shape no agent has.
func unknownLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "{\"type\":\"frobnicate\",\"n\":%d}\n", i)
	}
	return b.String()
}

// A followed stream that agentfmt cannot read is spoken of while it is
// followed, once the input waits, not only at an end that --follow never
// reaches; each of several streams says it under its own name.
func TestFollowUnshownSaidWhileFollowing(t *testing.T) {
	t.Parallel()
	const said = "25 of the 25 JSON lines could not be shown (frobnicate ×25)"
	t.Run("one", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "run.jsonl")
		if err := os.WriteFile(path, []byte(unknownLines(25)), 0o644); err != nil {
			t.Fatal(err)
		}
		fr := startFollow(t, "-o", "plain", path)
		waitFor(t, "the notice", func() bool { return strings.Contains(fr.err.String(), said) })
		fr.interrupt(t, "--follow")
		if n := strings.Count(fr.err.String(), "could not be shown"); n != 1 {
			t.Errorf("said %d times, want once:\n%s", n, fr.err.String())
		}
	})
	t.Run("several", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
		for _, p := range []string{a, b} {
			if err := os.WriteFile(p, []byte(unknownLines(25)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		fr := startFollow(t, "-o", "plain", a, b)
		waitFor(t, "both notices", func() bool {
			s := fr.err.String()
			return strings.Contains(s, "--follow a: "+said) && strings.Contains(s, "--follow b: "+said)
		})
		fr.interrupt(t, "--follow a b")
	})
}

// A few unknown lines are not spoken of while the input waits (a known
// agent's new kinds of lines at its start), but they are when a signal
// stops the following with nothing else read.
func TestFollowUnshownSaidAtInterrupt(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(unknownLines(6)), 0o644); err != nil {
		t.Fatal(err)
	}
	fr := startFollow(t, "-o", "plain", path)
	appendTo(t, path, (&cs{}).init().text("msg_1", "Known at last.").String())
	waitFor(t, "the text", func() bool { return strings.Contains(fr.out.String(), "Known at last.") })
	if s := fr.err.String(); strings.Contains(s, "could not be shown") {
		t.Errorf("spoken of while following, with 6 unknown lines:\n%s", s)
	}
	fr.interrupt(t, "--follow")
	if s := fr.err.String(); !strings.Contains(s, "6 of the 8 JSON lines could not be shown") {
		t.Errorf("not spoken of at the interrupt:\n%s", s)
	}
}
