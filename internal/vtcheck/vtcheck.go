// Package vtcheck replays terminal output through a terminal emulator and
// reads back what a person would see, so tests can check that the live
// renderer's redraws leave the same text as the append-only renderer:
//
//	rows := vtcheck.Screen(prettyOut, 80)
//	if err := vtcheck.InOrder(rows, answerTexts); err != nil { … }
//	if err := vtcheck.Sequences(prettyOut); err != nil { … }
//
// Comparisons ignore white space (wrapping, indentation, alignment) and
// markdown syntax (the live renderer shows markdown rendered): Squash
// removes both from both sides.
package vtcheck

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/sanitize"
)

// DefaultHeight is the screen height Screen uses: a usual terminal, so
// output that scrolls is checked with real scrolling into the scrollback.
const DefaultHeight = 24

// Screen feeds out to an emulated terminal width cells wide and
// DefaultHeight rows tall, and returns every row it holds at the end: the
// scrollback first, then the screen, trailing spaces trimmed and trailing
// empty rows dropped.
func Screen(out []byte, width int) []string { return ScreenSize(out, width, DefaultHeight) }

// ScreenSize is Screen with a chosen height.
//
// A newline starts the next row at its first column, as a terminal's
// output processing (onlcr) makes it; the emulator is put in newline mode
// for that.
func ScreenSize(out []byte, width, height int) []string {
	t := NewTerm(width, height)
	defer t.Close()
	t.Write(out)
	return t.All()
}

// joinRows joins rows as lines, subagents' labels left out (Unlabel):
// the text the checks read.
func joinRows(rows []string) string {
	var b strings.Builder
	for i, r := range rows {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(Unlabel(r))
	}
	return b.String()
}

// labelMargin is the label a subagent's line starts with, after its
// indent (render's sublabel.go): the subagent's description cut to 20
// cells, padded, and a heavy bar.
var labelMargin = regexp.MustCompile(`^( *)[^ ┃][^┃]{0,40}? ┃(?: |$)`)

// Unlabel leaves out the label of a subagent's line (its indent stays),
// so that the text of the line is compared with what it shows (Count,
// InOrder, SameText, WordsWhole read rows so).
func Unlabel(s string) string { return labelMargin.ReplaceAllString(s, "$1") }

// defuse turns every escape sequence the renderer does not write into
// visible text ("␛"), so the emulator never gets a query it would answer on
// its input pipe (which nobody reads). Sequences reports such output.
func defuse(out []byte) []byte {
	var b []byte
	last := 0
	for i := 0; i < len(out); i++ {
		if out[i] != 0x1b {
			continue
		}
		n, ok := allowed(out[i:])
		if ok {
			i += n - 1
			continue
		}
		b = append(b, out[last:i]...)
		b = append(b, "␛"...)
		last = i + 1
	}
	if b == nil {
		return out
	}
	return append(b, out[last:]...)
}

// Squash removes all white space from s, and the characters that
// markdown uses as syntax or the live renderer draws in its place (list
// bullets, table rules, quote bars, emphasis and code markers), and the
// lines that open and close fenced code (their language too: the live
// renderer shows code without them), so that an answer rendered as
// markdown compares with its source. The bar │ of a tool's output preview
// stays.
func Squash(s string) string {
	s = withoutFences(s)
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || strings.ContainsRune(mdSyntax, r) {
			return -1
		}
		return r
	}, s)
}

// withoutFences is s without the lines that open or close fenced code
// (``` or ~~~ after blanks and quote marks, then an info string without
// backticks or control characters).
func withoutFences(s string) string {
	if !strings.Contains(s, "```") && !strings.Contains(s, "~~~") {
		return s
	}
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if !isFence(l) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func isFence(l string) bool {
	t := strings.TrimLeft(l, " \t>")
	if !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
		return false
	}
	info := strings.TrimLeft(t, t[:1])
	return !strings.ContainsFunc(info, func(r rune) bool { return r == '`' || r < 0x20 })
}

// mdSyntax are the characters Squash drops besides white space.
const mdSyntax = "`*_#>|~-+=[]()!<\\•╎┃─┼┆"

// Count reports how many times text occurs in rows, white space ignored.
func Count(rows []string, text string) int {
	t := Squash(text)
	if t == "" {
		return 0
	}
	return strings.Count(Squash(joinRows(rows)), t)
}

// InOrder checks that each text occurs in rows exactly once and that they
// occur in the order given, white space ignored. Texts that are only white
// space are skipped.
func InOrder(rows []string, texts []string) error {
	all := Squash(joinRows(rows))
	at := 0
	for i, text := range texts {
		t := Squash(text)
		if t == "" {
			continue
		}
		switch n := strings.Count(all, t); n {
		case 0:
			return fmt.Errorf("text %d %q is not on the screen", i, clip(text))
		case 1:
		default:
			return fmt.Errorf("text %d %q is on the screen %d times", i, clip(text), n)
		}
		j := strings.Index(all[at:], t)
		if j < 0 {
			return fmt.Errorf("text %d %q is on the screen before the text it follows", i, clip(text))
		}
		at += j + len(t)
	}
	return nil
}

func clip(s string) string {
	if len(s) > 60 {
		i := 60
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		return s[:i] + "…"
	}
	return s
}

// Sequences checks that out holds no control sequence other than those the
// live renderer writes: SGR colour, cursor up (CUU), cursor to column
// (CHA), erase to the end of the row (EL) or of the screen (ED), hiding
// and showing the cursor, carriage return, newline and tab. Anything else,
// like a raw control byte from agent output, is reported with its offset.
func Sequences(out []byte) error {
	for i := 0; i < len(out); {
		c := out[i]
		switch {
		case c == 0x1b:
			n, ok := allowed(out[i:])
			if !ok {
				return fmt.Errorf("offset %d: escape sequence %q is not one the renderer writes", i, clipBytes(out[i:], 16))
			}
			i += n
			continue
		case c == '\n' || c == '\r' || c == '\t':
		case c < 0x20 || c == 0x7f:
			return fmt.Errorf("offset %d: raw control byte %#02x", i, c)
		case c >= 0x80:
			r, n := utf8.DecodeRune(out[i:])
			if r == utf8.RuneError && n == 1 {
				return fmt.Errorf("offset %d: invalid UTF-8", i)
			}
			if r >= 0x80 && r <= 0x9f {
				return fmt.Errorf("offset %d: C1 control U+%04X", i, r)
			}
			i += n
			continue
		}
		i++
	}
	return nil
}

// allowed returns the length of the sequence at the start of b and whether
// it is one the renderer writes.
func allowed(b []byte) (int, bool) {
	if len(b) >= 2 && (b[1] == '7' || b[1] == '8') {
		return 2, true // save and restore the cursor (a resize's erase)
	}
	if len(b) < 3 || b[1] != '[' {
		return 1, false
	}
	for _, fixed := range []string{"\x1b[?25l", "\x1b[?25h"} {
		if strings.HasPrefix(string(b[:min(len(b), len(fixed))]), fixed) {
			return len(fixed), true
		}
	}
	for j := 2; j < len(b) && j < 64; j++ {
		c := b[j]
		switch {
		case c >= '0' && c <= '9', c == ';', c == ':':
			continue
		case c == 'm':
			return j + 1, true
		case c == 'A' || c == 'B' || c == 'G':
			return j + 1, !strings.ContainsAny(string(b[2:j]), ";:")
		case c == 'K' || c == 'J':
			return j + 1, j == 2 || string(b[2:j]) == "2" && c == 'K'
		}
		return j + 1, false
	}
	return 1, false
}

func clipBytes(b []byte, n int) []byte { return b[:min(len(b), n)] }

// SameText checks that the final screen of the live renderer's output
// holds the text of the append-only renderer's output for the same events
// Each line of plain must occur on the pretty screen, white
// space, markdown syntax and the bars │ ┆ ignored, except lines that the
// two renderers word differently on purpose: tool start lines (▸),
// thinking summaries (✻), the closing lines (──) and plans (pretty shows
// each plan once per change, as a checklist) are skipped; for a tool's end
// line (✓ ✗ ⊘ …) only the tool name must occur, and plain's previews of
// output (│) are not looked for: pretty bounds them in rows, not lines,
// cuts long lines with a mark, and shows file edits as diffs. Tables are
// read row by row of their source (Untable): pretty wraps a long cell
// within its column.
func SameText(pretty, plain []byte, width int) error {
	return SameTextScreen(Screen(pretty, width), plain)
}

// SameTextScreen is SameText on the rows Screen returned of the pretty
// output, for a test that reads them anyway: the output is not emulated
// a second time.
func SameTextScreen(screen []string, plain []byte) error {
	rows := Untable(screen)
	hay := norm(joinRows(rows))
	for i, line := range strings.Split(sanitize.StripSGR(string(plain)), "\n") {
		l := strings.TrimSpace(Unlabel(line))
		switch {
		case l == "", strings.HasPrefix(l, "▸"), strings.HasPrefix(l, "✻"), strings.HasPrefix(l, "──"),
			l == "Plan", strings.HasPrefix(l, "☐"), strings.HasPrefix(l, "◐"), strings.HasPrefix(l, "☑"), strings.HasPrefix(l, "☒"):
			continue
		case hasMark(l):
			f := strings.Fields(l)
			if len(f) > 1 && !strings.Contains(hay, norm(f[1])) {
				return fmt.Errorf("plain line %d %q: tool %q is not on the pretty screen", i+1, clip(l), f[1])
			}
			continue
		case strings.HasPrefix(l, "│"):
			// A preview of a tool's output: pretty bounds it in rows at
			// its width, not in lines, and cuts long lines; a call with a
			// diff shows the diff instead.
			continue
		}
		if !strings.Contains(hay, norm(l)) {
			return fmt.Errorf("plain line %d %q is not on the pretty screen", i+1, clip(l))
		}
	}
	return nil
}

func hasMark(l string) bool {
	for _, m := range []string{"✓ ", "✗ ", "⊘ ", "… "} {
		if strings.HasPrefix(l, m) && !strings.HasPrefix(l, "✗ error") {
			return true
		}
	}
	return false
}

// norm is Squash without the bars that start each row of a preview.
func norm(s string) string { return strings.ReplaceAll(Squash(s), "│", "") }

// WordsWhole checks that every word of texts (a run of ASCII letters and
// digits, which no line breaking may split) that fits in a row of width
// cells is whole on some row, and returns the first word cut in two.
func WordsWhole(rows, texts []string, width int) error {
	var hay strings.Builder
	for _, r := range rows {
		hay.WriteString(Unlabel(r))
		hay.WriteByte('\n')
	}
	h := hay.String()
	for _, t := range texts {
		for _, w := range strings.FieldsFunc(withoutFences(t), func(r rune) bool {
			return !(r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)))
		}) {
			if len(w) > width-8 { // room for indents and bars
				continue
			}
			if !strings.Contains(h, w) {
				return fmt.Errorf("word %q is not whole on any row", w)
			}
		}
	}
	return nil
}
