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
// block ends, so a marker split across deltas is removed too. User prompt echoes, tool input and tool output are shown
// as they are: they are what was asked and done, not what the agent said.
//
// Until sits after the session, so the session's final answer (and
// result.Text as the session saw it) keep the marker: the command checks
// for it there. Use Marker.Strip for the answer the renderer prints.
type Until struct {
	next streaming.Handler
	m    *Marker
	lv   levels[untilBlock]
	ev   streaming.Event
}

type untilBlock struct {
	key  blockKey
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
	case streaming.KindResult:
		if err := u.Close(); err != nil {
			return err
		}
		if ev.Text == "" {
			return u.next.Handle(ev)
		}
		u.ev = *ev
		u.ev.Text = u.m.Strip(ev.Text)
		return u.next.Handle(&u.ev)
	}
	if endsAll(ev.Kind) {
		if err := u.Close(); err != nil {
			return err
		}
	} else if err := u.flush(u.lv.take(ev.Parent)); err != nil {
		return err
	}
	return u.next.Handle(ev)
}

// block returns the open block of ev's level, ending another block that
// was open there.
func (u *Until) block(ev *streaming.Event) (*untilBlock, error) {
	k := keyOf(ev)
	b := u.lv.get(ev.Parent)
	if b != nil && b.key == k {
		return b, nil
	}
	if err := u.flush(u.lv.take(ev.Parent)); err != nil {
		return nil, err
	}
	b = &untilBlock{key: ownKey(k), tmpl: template(ev, k.kind)}
	u.lv.set(ev.Parent, b)
	return b, nil
}

func (u *Until) delta(ev *streaming.Event) error {
	b, err := u.block(ev)
	if err != nil {
		return err
	}
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
	b, err := u.block(ev)
	if err != nil {
		return err
	}
	*b = untilBlock{key: b.key, tmpl: b.tmpl}
	b.tmpl.Line, b.tmpl.Time = ev.Line, ev.Time
	show, hold := u.m.feed(&b.st, ev.Text, false)
	b.held = strings.Clone(hold)
	u.ev = *ev
	u.ev.Text = string(show)
	return u.next.Handle(&u.ev)
}

// flush shows what a finished block held back.
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

// Close flushes every open block: at the end of input, or before the
// renderer finishes an interrupted run.
func (u *Until) Close() error {
	for _, b := range u.lv.takeAll() {
		if err := u.flush(b); err != nil {
			return err
		}
	}
	return nil
}
