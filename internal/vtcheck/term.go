package vtcheck

import (
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
