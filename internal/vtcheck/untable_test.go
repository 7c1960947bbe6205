package vtcheck

import (
	"strings"
	"testing"
)

// A table whose cells wrap in their columns is read row by row of its
// source: the text of each source row is found on the screen, which it is
// not when the screen's rows are read as they are.
func TestUntable(t *testing.T) {
	t.Parallel()
	rows := []string{
		"intro",
		"severity ╎ file                ╎ issue",
		"─────────┼─────────────────────┼──────────────",
		"high     ╎ `remote-frontend/   ╎ spyOn throws",
		"         ╎ AppRouter.test.tsx` ╎ in JSDOM.",
		"low      ╎ a.go                ╎ typo",
		"",
		"after",
	}
	src := "intro\n| severity | file | issue |\n|---|---|---|\n" +
		"| high | `remote-frontend/AppRouter.test.tsx` | spyOn throws in JSDOM. |\n| low | a.go | typo |\n\nafter"
	if Count(rows, src) != 0 {
		t.Fatal("the screen's rows as they are hold the source: the test shows nothing")
	}
	if n := Count(Untable(rows), src); n != 1 {
		t.Errorf("source on the untabled screen %d times, want 1:\n%s", n, strings.Join(Untable(rows), "\n"))
	}
	if got := Untable([]string{"a ╎ b", "plain"}); len(got) != 2 || got[1] != "plain" {
		t.Errorf("rows outside a table changed: %q", got)
	}
}
