package mdterm

import (
	"strings"

	"github.com/agentfmt/agentfmt/internal/termwrap"
)

// A streaming renderer shows markdown a block at a time, rendering each
// block once it is complete. These helpers find where blocks end from
// whole lines, without parsing inline content: the opening and closing
// lines of fenced code, ATX headings, blank lines.

// Fence is the opening line of a fenced code block.
type Fence struct {
	Char byte   // ` or ~
	N    int    // how many
	Info string // the info string: language and the rest
	Line string // the opening line as written
}

// OpenFence reports whether line opens a fenced code block (up to three
// spaces of indent, then three or more backticks or tildes).
func OpenFence(line string) (Fence, bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return Fence{}, false
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	info := strings.TrimSpace(t[n:])
	if n < 3 || (t[0] == '`' && strings.ContainsRune(info, '`')) {
		return Fence{}, false
	}
	return Fence{Char: t[0], N: n, Info: info, Line: line}, true
}

// Closes reports whether line closes the block f opened.
func (f Fence) Closes(line string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return false
	}
	t = strings.TrimRight(t, " \t")
	return len(t) >= f.N && strings.Trim(t, string(f.Char)) == ""
}

// Lang is the language of the block: the first word of its info string.
func (f Fence) Lang() string {
	if fs := strings.Fields(f.Info); len(fs) > 0 {
		return fs[0]
	}
	return ""
}

// IsHeading reports whether line is an ATX heading ("## Title").
func IsHeading(line string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || !strings.HasPrefix(t, "#") {
		return false
	}
	n := len(t) - len(strings.TrimLeft(t, "#"))
	return n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
}

// IsBlank reports whether line holds only white space.
func IsBlank(line string) bool { return strings.TrimSpace(line) == "" }

// CodeBlock renders the code lines of the fenced block f (a piece of
// them when the block streams in pieces: open says the piece starts the
// block, close that it ends it). With colour, the code is highlighted in
// its language and indented by two cells, with no row for the info string
// (as glow and Claude Code show code: the colours say the language, and a
// word above the code read as a stray line of text); without colour, the
// fence lines are shown as written.
func CodeBlock(code string, f Fence, width int, color, open, close bool) []termwrap.Line {
	width = max(width, 8)
	var out []termwrap.Line
	if !color {
		if open {
			out = termwrap.AppendWrap(out, expandTabs(f.Line), width)
		}
		if code != "" {
			out = append(out, Code(code, "", width, false)...)
		}
		if close {
			out = termwrap.AppendWrap(out, strings.Repeat(string(f.Char), f.N), width)
		}
		return out
	}
	if code == "" {
		return out
	}
	r := &renderer{color: true}
	return r.indent(out, Code(code, f.Lang(), width-2, true), "  ", "  ")
}
