package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/eventtext"
	"github.com/agentfmt/agentfmt/internal/simd"
	"github.com/agentfmt/agentfmt/internal/view"
)

// A prompt or a compaction summary longer than a screenful is folded, as
// Claude Code folds them: its first lines, "… N more lines", its last
// lines. The prompt is the person's own text (json keeps it whole); a
// 1,000-line prompt pasted into a run would otherwise push the run itself
// off the screen and fill a CI log.

// promptFold folds a prompt as its lines come: the first eventtext.PromptHead pass
// at once; the next are held while the prompt may still fit in limit
// rows; past that only the last eventtext.PromptTail are kept, and the others
// counted. Held lines are copied into buffers that are used again (the
// ring's, and those of the prompts before), so a long prompt costs no
// allocation per line.
type promptFold struct {
	limit   int
	n, rows int      // lines and rows seen
	held    [][]byte // lines after the head, in order; a ring once folding
	folding bool     // past limit rows
	next    int      // folding: the oldest line of the ring
	omitted int      // lines left out
	spare   [][]byte // buffers to use again
	rest    []string // scratch for end
}

// newPromptFold folds at limit rows (at least a head and a tail and the
// notice between them).
func newPromptFold(limit int) promptFold {
	return promptFold{limit: max(limit, eventtext.PromptHead+eventtext.PromptTail+1)}
}

// keep copies line into a buffer used again.
func (f *promptFold) keep(line string) []byte {
	var b []byte
	if n := len(f.spare); n > 0 {
		b, f.spare = f.spare[n-1][:0], f.spare[:n-1]
	}
	return append(b, line...)
}

// add takes the next line, which takes rows rows on the screen (1 where
// the width is not known); show says to show it now (it is in the head).
func (f *promptFold) add(line string, rows int) (show bool) {
	f.n++
	f.rows += max(rows, 1)
	if f.n <= eventtext.PromptHead {
		return true
	}
	if !f.folding && f.rows <= f.limit {
		f.held = append(f.held, f.keep(line))
		return false
	}
	if !f.folding {
		// Past a screenful: fold, keeping the last lines.
		f.folding = true
		if k := len(f.held) - (eventtext.PromptTail - 1); k > 0 {
			f.omitted += k
			f.spare = append(f.spare, f.held[:k]...)
			f.held = append(f.held[:0], f.held[k:]...)
		}
	}
	if len(f.held) < eventtext.PromptTail {
		f.held = append(f.held, f.keep(line))
		return false
	}
	f.held[f.next] = append(f.held[f.next][:0], line...)
	f.next = (f.next + 1) % len(f.held)
	f.omitted++
	return false
}

// full reports that the fold keeps only its last lines now: a line that
// eventtext.PromptTail more lines follow need not be added, only counted (skip).
func (f *promptFold) full() bool { return f.folding && len(f.held) == eventtext.PromptTail }

// skip counts k lines that as many later lines would push out of a full
// fold (each taking one row).
func (f *promptFold) skip(k int) {
	f.n += k
	f.rows += k
	f.omitted += k
}

// end gives what follows the head: the lines held (all of them, when the
// prompt fits), or the number left out and the last lines. The lines are
// the fold's buffers, valid until the next add: written out at once, they
// are not copied.
func (f *promptFold) end() (omitted int, rest []string) {
	rest = f.rest[:0]
	for i := range f.held {
		rest = append(rest, view.String(f.held[(f.next+i)%len(f.held)]))
	}
	omitted = f.omitted
	spare := append(f.spare, f.held...)
	if len(spare) > eventtext.PromptScreen {
		spare = spare[:eventtext.PromptScreen]
	}
	for i := range spare {
		if cap(spare[i]) > 4<<10 {
			spare[i] = nil // a long line's buffer is not kept
		}
	}
	clear(f.held)
	*f = promptFold{limit: f.limit, spare: spare, held: f.held[:0], rest: rest[:0]}
	return omitted, rest
}

// restart folds a new prompt at limit rows, with the buffers of the
// prompts before (end has been called).
func (f *promptFold) restart(limit int) {
	f.limit = max(limit, eventtext.PromptHead+eventtext.PromptTail+1)
}

// promptRows is about how many rows a prompt's line takes in avail cells
// (pretty wraps it there; plain's lines are wrapped there by the terminal
// or the log viewer, and fold as pretty's do).
func promptRows(line string, avail int) int {
	avail = max(avail, 8)
	if len(line) <= avail && strings.IndexByte(line, '\t') < 0 {
		return 1 // (a line takes no more cells than bytes, but for tabs)
	}
	if lo, hi, ok := cellBounds(line); ok && rowsOf(lo, avail) == rowsOf(hi, avail) {
		return rowsOf(lo, avail) // (most lines: their characters need not be measured)
	}
	return rowsOf(cells(expandTabs(line)), avail)
}

// rowsOf is the rows n cells take in avail cells: one at least.
func rowsOf(n, avail int) int { return max(1, (n+avail-1)/avail) }

// cellBounds are bounds on cells(line), a line without its newline, found
// without measuring a character: printable ASCII takes a cell a byte, and
// so do Latin-1 letters (U+00A0 to U+02FF, but for the soft hyphen and ©
// and ®, which can end an emoji sequence); every other character takes 0
// to 1 cell when it is two bytes long, 0 to 2 when longer. Not ok for a
// line with a tab or an escape sequence, which cells measures otherwise.
func cellBounds(line string) (lo, hi int, ok bool) {
	if strings.IndexByte(line, '\t') >= 0 {
		return 0, 0, false
	}
	for i := 0; i < len(line); {
		if n := simd.ASCIIRun(line[i:]); n > 0 {
			lo, hi, i = lo+n, hi+n, i+n
			continue
		}
		c := line[i]
		if c < utf8.RuneSelf {
			if c == 0x1b {
				return 0, 0, false
			}
			i++ // a control character: no cell
			continue
		}
		r, n := utf8.DecodeRuneInString(line[i:])
		switch {
		case n == 2 && r >= 0xa0 && r < 0x300 && r != 0xad && r != 0xa9 && r != 0xae:
			lo++
			hi++
		case n == 2:
			hi++
		default:
			hi += 2
		}
		i += n
	}
	return lo, hi, true
}

// moreLines is "… N more lines".
func moreLines(n int) string { return string(appendMoreLines(nil, n)) }

// appendMoreLines appends moreLines(n) to b.
func appendMoreLines(b []byte, n int) []byte {
	b = strconv.AppendInt(append(b, "… "...), int64(n), 10)
	return append(append(b, " more line"...), eventtext.Plural(n)...)
}
