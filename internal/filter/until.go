package filter

import (
	"strings"

	"github.com/agentfmt/agentfmt/streaming"
)

// Until strips the --until completion marker from what is shown: the
// assistant's text and thinking (deltas and revisions) and the result's
// text, where the marker counts (Marker: a token of its own at the
// beginning or end of a block). What could still be such a marker — the
// beginning of a block, a marker or a start of one at the end of a delta,
// with the whitespace around it — is held back until the next piece of the
// block tells, and flushed (or dropped, if it was the marker) when the
// session says the block is final (block.stop), so a marker split across
// deltas is removed too. User prompt echoes, tool input and tool output are shown
// as they are: they are what was asked and done, not what the agent said.
//
// Until sits after the session, so the session's final answer (and
// result.Text as the session saw it) keep the marker: the command checks
// for it there. Use Marker.Strip for the answer the renderer prints.
type Until struct {
	next streaming.Handler
	m    *Marker
	open held[untilBlock]
	ev   streaming.Event
}

type untilBlock struct {
	tmpl streaming.Event // the block's last event, for a flushed remainder
	st   markerState
	held string
}

// NewUntil returns an Until filter for a non-empty marker.
func NewUntil(next streaming.Handler, marker string) *Until {
	return &Until{next: next, m: NewMarker(marker)}
}

// Marker returns the filter's marker.
func (u *Until) Marker() *Marker { return u.m }

// Handle filters one event.
func (u *Until) Handle(ev *streaming.Event) error {
	switch ev.Kind {
	case streaming.KindTextDelta, streaming.KindThinkingDelta:
		if ev.Role != streaming.RoleUser {
			return u.delta(ev)
		}
	case streaming.KindTextRevision, streaming.KindThinkingRevision:
		if ev.Role != streaming.RoleUser {
			return u.revision(ev)
		}
	case streaming.KindBlockStop:
		if err := u.flush(u.open.take(keyOf(ev))); err != nil {
			return err
		}
	case streaming.KindResult:
		if ev.Text == "" {
			return u.next.Handle(ev)
		}
		u.ev = *ev
		u.ev.Text = u.m.Strip(ev.Text)
		return u.next.Handle(&u.ev)
	}
	return u.next.Handle(ev)
}

// block returns what the filter holds of ev's block, new if nothing.
func (u *Until) block(ev *streaming.Event) *untilBlock {
	k := keyOf(ev)
	b := u.open.get(k)
	if b == nil {
		b = &untilBlock{tmpl: template(ev, k.kind)}
		u.open.add(k, b)
	}
	return b
}

func (u *Until) delta(ev *streaming.Event) error {
	b := u.block(ev)
	b.tmpl.Line, b.tmpl.Time = ev.Line, ev.Time
	show, hold := u.m.feed(&b.st, b.held+ev.Text, false)
	b.held = strings.Clone(hold) // kept past Handle: the event's text may be lent
	if len(show) == 0 {
		return nil
	}
	u.ev = *ev
	u.ev.Text = string(show)
	return u.next.Handle(&u.ev)
}

// revision restarts the block with its whole new text.
func (u *Until) revision(ev *streaming.Event) error {
	b := u.block(ev)
	*b = untilBlock{tmpl: b.tmpl}
	b.tmpl.Line, b.tmpl.Time = ev.Line, ev.Time
	show, hold := u.m.feed(&b.st, ev.Text, false)
	b.held = strings.Clone(hold)
	u.ev = *ev
	u.ev.Text = string(show)
	return u.next.Handle(&u.ev)
}

// flush shows what a block the session ended held back.
func (u *Until) flush(b *untilBlock) error {
	if b == nil || b.held == "" {
		return nil
	}
	show, _ := u.m.feed(&b.st, b.held, true)
	b.held = ""
	if len(show) == 0 {
		return nil
	}
	u.ev = b.tmpl
	u.ev.Text = string(show)
	return u.next.Handle(&u.ev)
}

// Close flushes every block still held: the session ends them all at
// the end of input, but an interrupted run ends without it.
func (u *Until) Close() error {
	for _, b := range u.open.takeAll() {
		if err := u.flush(b); err != nil {
			return err
		}
	}
	return nil
}
