package render

import (
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/termwrap"
)

// Terminal sequences the screen writer uses, and no others: the
// conformance test (internal/vtcheck) allows exactly these in pretty output.
const (
	seqHideCursor = "\x1b[?25l"
	seqShowCursor = "\x1b[?25h"
	seqEraseBelow = "\x1b[J"  // from the cursor to the end of the screen
	seqEraseRow   = "\x1b[2K" // the whole row, the cursor staying
	seqSaveCursor = "\x1b7"
	seqRestCursor = "\x1b8"
	seqDown       = "\x1b[B" // a row down, never scrolling
	seqUp         = "\x1b[A" // a row up, never scrolling
)

// screen owns the terminal. Finished rows are written once and scroll away
// into the scrollback, never to be touched again; the live region, the
// rows at the bottom, is redrawn in place. A redraw writes only what
// changed: a row whose old content is a prefix of the new one (streaming
// text) gets just the new cells, so bytes written grow with the text, not
// with the number of redraws.
//
// It relies on the terminal's usual output processing (onlcr): a newline
// starts the next row at its first column. It never writes past the last
// column, never relies on a row soft-wrapping, and counts rows in cells.
type screen struct {
	out   io.Writer
	buf   []byte
	width int

	noReflow bool // the terminal cuts rows on a resize (Config.NoReflow)
	// hook, when set (tests, Config.drawHook), sees every frame's rows
	// before they are drawn.
	hook func(width int, commit, live []row)

	rows   []row // the live region as it stands on the terminal, top first
	cy, cx int   // cursor relative to the region's first row; cx == width: pending wrap
	hidden bool

	err       error
	frames    int   // writes that changed the terminal
	committed int   // rows written to the scrollback for good
	written   int64 // bytes written
}

func (s *screen) str(v string) { s.buf = append(s.buf, v...) }

func (s *screen) csi(n int, final byte) {
	s.buf = append(s.buf, "\x1b["...)
	if n != 1 {
		s.buf = strconv.AppendInt(s.buf, int64(n), 10)
	}
	s.buf = append(s.buf, final)
}

// moveTo puts the cursor on a row of the region (rows below the region are
// reached with newlines, which scroll at the bottom of the screen) and a
// column.
func (s *screen) moveTo(r, col int) {
	if r < s.cy {
		s.csi(s.cy-r, 'A')
		s.cy = r
		if s.cx >= s.width {
			s.cx = s.width - 1
		}
	}
	for s.cy < r {
		s.buf = append(s.buf, '\n')
		s.cy++
		s.cx = 0
	}
	if col != s.cx {
		if col == 0 {
			s.buf = append(s.buf, '\r')
		} else {
			s.csi(col+1, 'G')
		}
		s.cx = col
	}
}

// draw writes commit (rows that go to the scrollback for good) followed by
// live (the new live region) over the old live region.
func (s *screen) draw(commit, live []row) {
	// Never a row wider than the terminal: one would wrap, and the rows
	// counted for the live region would be wrong. Layouts fit their rows
	// to the width; on a terminal of a few columns some cannot (a status
	// line's fixed words), and are cut here.
	commit, live = s.fit(commit), s.fit(live)
	if s.hook != nil {
		s.hook(s.width, commit, live)
	}
	n := len(s.rows)
	total := len(commit) + len(live)
	if total == 0 && n == 0 {
		return
	}
	if len(live) > 0 && !s.hidden {
		s.str(seqHideCursor)
		s.hidden = true
	}
	for i := 0; i < total; i++ {
		var nr row
		if i < len(commit) {
			nr = commit[i]
		} else {
			nr = live[i-len(commit)]
		}
		switch {
		case i < n && s.rows[i].w <= nr.w:
			s.rewrite(i, s.rows[i], nr)
			continue
		case i < n:
			// A row that gets shorter is not cut with an erase to the end
			// of the row: terminals such as tmux keep the erased cells as
			// part of the row, and when the window gets narrower they
			// re-wrap the row at its old width, which screen.resize can't
			// know. The row is erased whole and written anew.
			s.eraseRows(i, i+1)
		default:
			s.moveTo(i, 0)
		}
		s.str(nr.s)
		s.cx = nr.w
		if i < len(commit) && len(s.buf) >= spillSize {
			s.spill() // (rows that are final: a frame of megabytes is not held whole)
		}
	}
	switch {
	case total < n:
		s.eraseRows(total, n)
		s.moveTo(total, 0)
	case len(live) == 0:
		s.moveTo(total, 0) // leave the cursor on a fresh row
	}
	s.rows = append(s.rows[:0], live...)
	s.cy -= len(commit)
	s.committed += len(commit)
}

// fit returns rows with every row wider than the terminal cut to its
// width (ending in an ellipsis); rows itself when none is.
func (s *screen) fit(rows []row) []row {
	for i := range rows {
		if rows[i].w <= s.width {
			continue
		}
		out := append([]row(nil), rows...)
		for j := i; j < len(out); j++ {
			if out[j].w > s.width {
				l := termwrap.Truncate(out[j].s, s.width)
				out[j].s, out[j].w = l.S, l.W
			}
		}
		return out
	}
	return rows
}

// eraseRows erases rows from to to-1 of the region, one by one. Never with
// an erase to the end of the screen: the region may start at the top of
// the screen (after a resize), and tmux takes an erase from the top-left
// corner for "clear screen", moving what the screen holds, the region
// included, into its scrollback.
func (s *screen) eraseRows(from, to int) {
	for k := from; k < to; k++ {
		s.moveTo(k, 0)
		s.str(seqEraseRow)
	}
}

// rewrite turns row i from o into nr, no narrower than o, writing from the
// first cell where they differ.
func (s *screen) rewrite(i int, o, nr row) {
	if o.s == nr.s {
		return
	}
	p := commonPrefix(o.s, nr.s)
	col, st := 0, sgrState{}
	if p > 0 {
		head := nr.s[:p]
		if a := asciiPrefix(head); a == len(head) {
			col = a
		} else {
			eachCluster(head, func(c string, cw int, sgr bool) bool {
				if sgr {
					st.Apply(c)
				}
				col += cw
				return true
			})
		}
	}
	s.moveTo(i, col)
	s.str(st.Open())
	s.str(nr.s[p:])
	s.cx = nr.w
}

// commonPrefix is the length of the common start of a and b, moved back so
// that it ends between two grapheme clusters and outside any escape
// sequence on both.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	p := 0
	for p < n && a[p] == b[p] {
		p++
	}
	for p > 0 {
		switch {
		case p < len(b) && !utf8.RuneStart(b[p]), p < len(a) && !utf8.RuneStart(a[p]):
			p--
		case inEscape(b[:p]):
			p = lastEsc(b[:p])
		case isZeroWidthStart(a[p:]) || isZeroWidthStart(b[p:]) || endsWithJoiner(b[:p]):
			_, sz := utf8.DecodeLastRuneInString(b[:p])
			p -= sz
		default:
			return p
		}
	}
	return 0
}

func lastEsc(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == 0x1b {
			return i
		}
	}
	return -1
}

// inEscape reports whether s ends inside an unfinished escape sequence.
func inEscape(s string) bool {
	i := lastEsc(s)
	if i < 0 {
		return false
	}
	for j := i + 1; j < len(s); j++ {
		if c := s[j]; c >= 0x40 && c <= 0x7e && j > i+1 {
			return false
		}
	}
	return true
}

func endsWithJoiner(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r == 0x200d
}

// resize forgets the live region after the terminal changed width, and
// erases what it can of it; the next draw writes the region anew from
// where the cursor ends up: the region's first row.
//
// A terminal that got narrower has re-wrapped each row of the region into
// as many rows as it now takes (tmux, VTE, kitty, iTerm2, Windows Terminal
// reflow; the rows never had cells erased at their end, see draw, so
// their width is what was written), keeping the cursor on the same
// character. The erase goes row by row, up from the cursor and down from
// it (the cursor saved and restored in between), and each move stops at
// the edge of the screen: it never clears the screen from its top-left
// corner, which tmux takes for "clear screen" and answers by moving the
// whole screen, the region included, into its scrollback. Rows that the
// reflow pushed above the top of the screen are beyond any erase: the
// region is kept short enough (Pretty.clip) that a terminal three times
// narrower still has it on the screen.
func (s *screen) resize(width int) {
	if width == s.width || width <= 0 {
		return
	}
	if len(s.rows) > 0 || s.cy != 0 || s.cx != 0 {
		tall := func(w int) int { return 1 } // rows a row of w cells takes now
		if width < s.width && !s.noReflow {
			tall = func(w int) int { return max(1, (w+width-1)/width) }
		}
		up, down := 0, 0
		for i := range s.rows {
			switch {
			case i < s.cy:
				up += tall(s.rows[i].w)
			case i > s.cy:
				down += tall(s.rows[i].w)
			}
		}
		if s.cy < len(s.rows) {
			at := 0 // the cursor's row within its re-wrapped row
			if width < s.width && !s.noReflow {
				at = min(s.cx, s.width-1) / width
			}
			up += at
			down += tall(s.rows[s.cy].w) - 1 - at
		}
		s.str("\r" + seqEraseRow)
		if down > 0 {
			s.str(seqSaveCursor)
			for range down {
				s.str(seqDown + seqEraseRow)
			}
			s.str(seqRestCursor)
		}
		for range up {
			s.str(seqUp + seqEraseRow)
		}
	}
	s.rows = s.rows[:0]
	s.cy, s.cx = 0, 0
	s.width = width
}

// showCursor is the last thing written, on every way out.
func (s *screen) showCursor() {
	if s.hidden {
		s.str(seqShowCursor)
		s.hidden = false
	}
}

// flush writes what was buffered in one write.
// spillSize is the most a frame holds before what it has of the rows
// that go to the scrollback is written: one long answer committed in one
// frame was otherwise held whole, its buffer grown by doubling
// (docs/performance.md).
const spillSize = 256 << 10

// spill writes what the frame holds so far, within a frame.
func (s *screen) spill() {
	if s.err == nil {
		n, err := s.out.Write(s.buf)
		s.written += int64(n)
		s.err = err
	}
	s.buf = s.buf[:0]
}

func (s *screen) flush() error {
	if len(s.buf) == 0 {
		return s.err
	}
	if s.err == nil {
		n, err := s.out.Write(s.buf)
		s.written += int64(n)
		s.frames++
		if err != nil {
			s.err = err
		}
	}
	s.buf = s.buf[:0]
	return s.err
}
