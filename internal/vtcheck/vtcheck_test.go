package vtcheck

import (
	"bytes"
	"fmt"
	"os"
	"slices"
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

// The emulator reads wide characters and keeps the rows scrolled off the
// top, as a person sees them: "表語ab" fills a row 6 cells wide and the
// "c" goes to the next row; none of the 30 rows written to a terminal 4
// rows tall is lost.
func TestScreenAsSeen(t *testing.T) {
	t.Parallel()
	out := "表語ab\x1b[1mc\x1b[0m🎉\n"
	for i := range 30 {
		out += fmt.Sprintf("row %d\n", i)
	}
	rows := ScreenSize([]byte(out), 6, 4)
	if len(rows) != 32 || rows[0] != "表語ab" || rows[1] != "c🎉" || rows[31] != "row 29" {
		t.Errorf("screen %q", rows)
	}
}

// A Term shows the screen now (Rows) or everything it holds (All) and
// follows a resize; after Close its process serves the next Term, which
// starts empty at its own size. (Not in parallel: no other test may take
// the process in between.)
func TestTerm(t *testing.T) {
	term := NewTerm(10, 2)
	defer term.Close()
	term.Write([]byte("one\ntwo\nthree"))
	if got := strings.Join(term.Rows(), "|"); got != "two|three" {
		t.Errorf("rows %q, want two|three", got)
	}
	term.Resize(20, 3)
	term.Write([]byte(" is longer\n"))
	if got := strings.Join(term.All(), "|"); got != "one|two|three is longer" {
		t.Errorf("all %q", got)
	}
	p := term.p
	term.Close()
	term.Close()
	next := NewTerm(4, 2)
	defer next.Close()
	if next.p != p {
		t.Fatal("the closed Term's process was not reused")
	}
	next.Write([]byte("abcdef"))
	if got := strings.Join(next.All(), "|"); got != "abcd|ef" {
		t.Errorf("the next Term holds %q, want abcd|ef", got)
	}
}

// The main module does not name the terminal emulator or the modules it
// brings: it lives in tools/vt, a module of its own.
func TestMainModuleWithoutEmulator(t *testing.T) {
	t.Parallel()
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"github.com/charmbracelet/", "github.com/clipperhouse/", "github.com/mattn/go-runewidth"} {
		if bytes.Contains(gomod, []byte(m)) {
			t.Errorf("go.mod names %s: the emulator's modules belong in tools/vt/go.mod", m)
		}
	}
}

// An emulator that goes away fails the Term's next read loudly, naming
// it; the Term's Close does not keep the dead process for the next Term.
func TestTermEmulatorGone(t *testing.T) {
	t.Parallel()
	term := NewTerm(10, 2)
	p := term.p
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	msg := func() (msg any) {
		defer func() { msg = recover() }()
		term.Write([]byte("text"))
		term.Rows()
		return nil
	}()
	if s, _ := msg.(string); !strings.Contains(s, "vtcheck: the terminal emulator") || !strings.Contains(s, "killed") {
		t.Errorf("panic %v, want one naming the emulator and its end", msg)
	}
	term.Close()
	idle.Lock()
	defer idle.Unlock()
	if slices.Contains(idle.procs, p) {
		t.Error("the dead process is kept for the next Term")
	}
}
