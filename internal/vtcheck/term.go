package vtcheck

import (
	"regexp"
	"strconv"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
)

// Term is an emulated terminal fed as the output arrives, for tests that
// read the screen while a run is live (Screen reads it once, at the end):
//
//	term := vtcheck.NewTerm(80, 24)
//	term.Write(frame)
//	rows := term.Rows() // what a person sees now
type Term struct {
	e *vt.Emulator
}

// NewTerm returns an empty terminal width cells wide and height rows tall,
// in newline mode as Screen's (a newline starts the next row at its first
// column, as a terminal's output processing makes it).
func NewTerm(width, height int) *Term {
	e := vt.NewEmulator(width, height)
	_, _ = e.Write([]byte("\x1b[20h"))
	return &Term{e: e}
}

// Write feeds output to the terminal, every escape sequence the renderer
// does not write made visible (as Screen does). A write holds whole
// sequences: the renderer's frames do.
func (t *Term) Write(out []byte) { _, _ = t.e.Write(defuse(out)) }

// Rows returns the rows on the screen now, top first, trailing spaces
// trimmed; the scrollback is not read.
func (t *Term) Rows() []string {
	rows := make([]string, 0, t.e.Height())
	for y := 0; y < t.e.Height(); y++ {
		line := make(uv.Line, t.e.Width())
		for x := range line {
			if c := t.e.CellAt(x, y); c != nil {
				line[x] = *c
			}
		}
		rows = append(rows, strings.TrimRight(line.String(), " "))
	}
	return rows
}

var (
	// runningLine is the live region's line of a running call: a spinner
	// frame of the pretty renderer, the call's name.
	// (after a subagent's label, if any).
	runningLine = regexp.MustCompile(`^ *(?:[^ ┃][^┃]{0,40}? ┃ +)?[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (\S+)`)
	// moreRunning is the row that counts the running calls not shown.
	moreRunning = regexp.MustCompile(`… (\d+) more running`)
)

// CallsShown reads the running calls' lines on rows against want (a
// call's name: how many of that name run): missing is how many running
// calls have no line and no "… N more running" row counts; twice names a
// call with more lines than run (one left behind, or drawn twice).
func CallsShown(rows []string, want map[string]int) (missing int, twice string) {
	got, uncounted := map[string]int{}, 0
	for _, s := range rows {
		if m := runningLine.FindStringSubmatch(s); m != nil {
			got[m[1]]++
		}
		if m := moreRunning.FindStringSubmatch(s); m != nil {
			uncounted, _ = strconv.Atoi(m[1])
		}
	}
	for name, k := range want {
		missing += max(k-got[name], 0)
	}
	for name, k := range got {
		if k > want[name] {
			twice = name
		}
	}
	return max(missing-uncounted, 0), twice
}
