package vtcheck

import (
	"strings"
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

func TestScreenFollowsRedraws(t *testing.T) {
	t.Parallel()
	// A live line redrawn in place, then a row committed above a status
	// line that is erased at the end.
	out := "\x1b[?25lwork\n● 1s\x1b[A\x1b[5Ging done\n\x1b[31m● 2s\x1b[0m\x1b[A\r\x1b[Kfinal\n\x1b[J\x1b[?25h"
	got := strings.Join(Screen([]byte(out), 20), "|")
	if got != "final" {
		t.Errorf("screen %q, want %q", got, "final")
	}
	rows := Screen([]byte(strings.Repeat("line\n", 60)), 20)
	if len(rows) != 60 {
		t.Errorf("%d rows with the scrollback, want 60", len(rows))
	}
}

func TestInOrder(t *testing.T) {
	t.Parallel()
	rows := []string{"first answer", "is wrapped", "second"}
	if err := InOrder(rows, []string{"first answer is wrapped", "second"}); err != nil {
		t.Error(err)
	}
	if err := InOrder(rows, []string{"second", "first"}); err == nil {
		t.Error("order not checked")
	}
	if err := InOrder([]string{"x y", "x y"}, []string{"x y"}); err == nil {
		t.Error("duplicates not reported")
	}
	if err := InOrder(rows, []string{"missing"}); err == nil {
		t.Error("missing text not reported")
	}
}

func TestSequences(t *testing.T) {
	t.Parallel()
	ok := "\x1b[?25l\x1b[1mbold\x1b[22m\x1b[3A\x1b[12G\x1b[K\x1b[J\r\n\ttext ✓\x1b[?25h"
	if err := Sequences([]byte(ok)); err != nil {
		t.Errorf("renderer sequences refused: %v", err)
	}
	for _, bad := range []string{"\x1b]0;title\x07", "\x1b[2J", "\x1b[6n", "\x07", "a\u009bb", "\xff", "\x1b[1;2H"} {
		if err := Sequences([]byte("ok " + bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// A query is never obeyed by the emulator (nobody reads its replies).
	if got := Screen([]byte("a\x1b[6nb"), 20); len(got) != 1 || got[0] != "a␛[6nb" {
		t.Errorf("query not defused: %q", got)
	}
}

func TestSameText(t *testing.T) {
	t.Parallel()
	plain := "● session s\nHello there\n▸ Bash ls\n✓ Bash ls · exit 0\n  │ a.go\n── ✓ done\n"
	pretty := "\x1b[2m● session s\x1b[0m\nHello there\n✓ \x1b[1mBash\x1b[22m ls\n  │ a.go\n── ✓ done · 1s\n"
	if err := SameText([]byte(pretty), []byte(plain), 80); err != nil {
		t.Error(err)
	}
	if err := SameText([]byte("Hello\n"), []byte(plain), 80); err == nil {
		t.Error("missing lines not reported")
	}
}

func TestWordsWhole(t *testing.T) {
	t.Parallel()
	if err := WordsWhole([]string{"the e", "xplorer opens"}, []string{"the explorer opens"}, 40); err == nil {
		t.Error("a split word passed")
	}
	if err := WordsWhole([]string{"the", "explorer opens"}, []string{"the explorer opens"}, 40); err != nil {
		t.Error(err)
	}
}
