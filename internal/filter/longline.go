package filter

import (
	"fmt"
	"unicode/utf8"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// PieceMost is the longest piece of a raw line LongLines passes on.
const PieceMost = 1 << 20

// LongLines passes a raw line (input that is not JSON) longer than
// PieceMost on in pieces of at most PieceMost bytes, each a raw event of
// its own that the renderers show as a line, after a notice saying so.
// A renderer for a person makes a line visible before it writes it (a
// control byte becomes a picture of three bytes, ␀) and lays it out: done
// on a whole line of hundreds of megabytes (a sparse file's hole of NULs)
// that cost several times the line. A piece at a time, it costs a few
// megabytes beside the line itself. json, which writes a line as it
// escapes it, keeps it whole.
type LongLines struct {
	next  streaming.Handler
	piece streaming.Event
}

// NewLongLines returns a LongLines passing events on to next.
func NewLongLines(next streaming.Handler) *LongLines { return &LongLines{next: next} }

// Handle passes ev on, a long raw line in pieces.
func (l *LongLines) Handle(ev *streaming.Event) error {
	if ev.Kind != streaming.KindRaw || len(ev.Text) <= PieceMost {
		return l.next.Handle(ev)
	}
	l.piece = streaming.Event{Kind: streaming.KindNotice, Agent: ev.Agent, Line: ev.Line, Time: ev.Time,
		Text: fmt.Sprintf("line %d is %s long: shown in pieces of %s, one per line", ev.Line,
			parsers.HumanBytes(int64(len(ev.Text))), parsers.HumanBytes(PieceMost))}
	if err := l.next.Handle(&l.piece); err != nil {
		return err
	}
	for text := ev.Text; text != ""; {
		n := pieceCut(text, PieceMost)
		l.piece = *ev
		l.piece.Text = text[:n]
		if err := l.next.Handle(&l.piece); err != nil {
			return err
		}
		text = text[n:]
	}
	return nil
}

// pieceCut is where the first piece of s (at most most bytes) ends: not
// inside a character, nor inside an escape sequence that may be colour
// (ESC [ and up to 62 bytes: sanitize's longest SGR sequence), nor
// between the CR and LF of a line end. s longer than most is cut.
func pieceCut(s string, most int) int {
	if len(s) <= most {
		return len(s)
	}
	cut := most
	for cut > most-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	for i := cut - 1; i >= 0 && i >= cut-64; i-- {
		if s[i] == 0x1b {
			cut = i
			break
		}
	}
	if cut > 0 && s[cut-1] == '\r' {
		cut--
	}
	if cut == 0 {
		return most // an escape at the very start: cut anywhere
	}
	return cut
}
