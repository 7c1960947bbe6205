package vtcheck

import (
	"regexp"
	"strconv"
)

// Term is an emulated terminal fed as the output arrives, for tests that
// read the screen while a run is live (Screen reads it once, at the end):
//
//	term := vtcheck.NewTerm(80, 24)
//	defer term.Close()
//	term.Write(frame)
//	rows := term.Rows() // what a person sees now
//
// The emulator runs in a process of its own, the Term's alone until Close
// (emulator.go). A Term that cannot talk to it panics, naming the cause.
type Term struct {
	p *proc
}

// NewTerm returns an empty terminal width cells wide and height rows tall,
// in newline mode as Screen's (a newline starts the next row at its first
// column, as a terminal's output processing makes it), that keeps every
// row scrolled off its top.
func NewTerm(width, height int) *Term { return &Term{p: take(width, height)} }

// Write feeds output to the terminal, every escape sequence the renderer
// does not write made visible (as Screen does). A write holds whole
// sequences: the renderer's frames do.
func (t *Term) Write(out []byte) { t.proc().send('w', defuse(out)) }

// Resize makes the terminal width cells wide and height rows tall.
func (t *Term) Resize(width, height int) { t.proc().send('s', size(width, height)) }

// Rows returns the rows on the screen now, top first, trailing spaces
// trimmed; the scrollback is not read.
func (t *Term) Rows() []string {
	t.proc().send('r', nil)
	return t.p.rows()
}

// All returns every row the terminal holds: the scrollback first, then
// the screen, trailing spaces trimmed and trailing empty rows dropped.
func (t *Term) All() []string {
	t.proc().send('a', nil)
	rows := t.p.rows()
	for len(rows) > 0 && rows[len(rows)-1] == "" {
		rows = rows[:len(rows)-1]
	}
	return rows
}

// Close gives the terminal's process back, for another Term. It may be
// called more than once.
func (t *Term) Close() {
	if t.p != nil {
		t.p.release()
		t.p = nil
	}
}

func (t *Term) proc() *proc {
	if t.p == nil {
		panic("vtcheck: a Term used after Close")
	}
	return t.p
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
