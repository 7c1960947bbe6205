package render

import (
	"strings"
	"time"

	"github.com/agentfmt/agentfmt/internal/eventtext"
)

// A stream's heading in the pretty view's live region, which becomes its
// summary line, and its separator in the scrollback.

// describe is what the heading says of the stream besides its tag: the
// agent, the project and the session, each unless the tag says it.
func (l *prettyLane) describe() []string {
	var parts []string
	tag := l.info.Tag
	if a := l.info.Agent; a != "" && !strings.HasPrefix(tag, a+"·") && tag != a {
		parts = append(parts, a)
	}
	if p := l.info.Project; p != "" {
		parts = append(parts, p)
	}
	if s := l.info.Session; s != "" {
		_, short, ok := strings.Cut(tag, "·")
		if !ok || !strings.HasPrefix(s, short) {
			parts = append(parts, eventtext.TruncateRunes(s, 9))
		}
	}
	return parts
}

// separator is the row before a stream's rows in the scrollback: its
// tag, and the first time what the stream is.
func (l *prettyLane) separator(v *prettyView) row {
	if l.described && l.sep.w > 0 && l.sep.w <= v.scr.width {
		return l.sep
	}
	p := v.p
	s := p.Dim("── ") + p.Bold(l.style(l.info.Tag))
	if d := l.describe(); len(d) > 0 && !l.described {
		s += p.Dim(" · " + strings.Join(d, " · "))
		l.described = l.info.Agent != "" // (known once its session started)
		return fitRow(s, v.scr.width)
	}
	l.sep = fitRow(s, v.scr.width)
	return l.sep
}

// fitRow is s on one row of width cells, cut with an ellipsis.
func fitRow(s string, width int) row {
	rows := wrapStyled(nil, s, width, "", "", 0, true)
	if len(rows) == 0 {
		return row{}
	}
	return rows[0]
}

// heading is the stream's line in the live region: its state, tag, what
// it is, and its figures.
func (l *prettyLane) heading(v *prettyView) row {
	if l.stopped != nil && l.stopped.w <= v.scr.width {
		return *l.stopped
	}
	r := l.r
	key := headKey{gen: l.gen, width: v.scr.width}
	if r.run.active && l.end == nil {
		key.waiting = l.turn.waiting(v.now, r.running)
		if !key.waiting {
			key.sec = int64(v.now.Sub(r.run.start) / time.Second)
		}
		if r.running > 0 {
			key.spin = v.now.UnixNano() / int64(spinnerInterval)
		}
	}
	if key != l.headKey || l.head.w == 0 {
		l.head, l.headKey = l.makeHeading(v), key
	}
	return l.head
}

func (l *prettyLane) makeHeading(v *prettyView) row {
	p := v.p
	r := l.r
	var mark, state string
	var facts []string
	switch {
	case l.end != nil && l.end.Interrupted:
		mark, state = p.Yellow("⊘"), p.Yellow("interrupted")
	case r.run.active && l.end == nil:
		mark, state = p.Cyan("●"), "running"
		if name := l.waitingOn(); name != "" {
			mark, state = p.Cyan(spinnerAt(v.now)), "waiting on "+p.Bold(name)
		}
		if l.turn.waiting(v.now, r.running) {
			// The turn is over: the agent waits for its user, and no
			// clock counts.
			mark, state = p.Dim("◦"), "waiting for a prompt"
		} else {
			facts = append(facts, elapsed(v.now.Sub(r.run.start)))
		}
		if u := r.run.usage; u != nil {
			if t := u.Total(); t > 0 {
				facts = append(facts, eventtext.Tokens(t)+" tokens")
			}
			if eventtext.KnownCost(u) {
				facts = append(facts, eventtext.Cost(u.CostUSD))
			}
		}
	case l.result != nil && l.result.ok && l.info.Saved && (l.end == nil || l.end.Stopped):
		mark, state, facts = p.Green("✓"), "waiting for a prompt", l.result.facts
	case l.result != nil && l.result.ok:
		mark, state, facts = p.Green("✓"), p.Green("done"), l.result.facts
	case l.result != nil:
		mark, state, facts = p.Red("✗"), p.Red("failed"), l.result.facts
		if l.result.reason != "" {
			state += p.Red(": " + l.result.reason)
		}
	case l.end != nil && l.end.Stopped:
		mark, state = p.Dim("·"), p.Dim("idle")
	case l.end != nil:
		mark, state = p.Yellow("…"), p.Yellow("incomplete")
		if why := l.r.clean(eventtext.OneLine(l.end.Reason)); why != "" {
			state += p.Yellow(": " + why)
		}
	default:
		mark, state = p.Dim("·"), p.Dim("idle")
	}
	s := mark + " " + p.Bold(l.style(l.info.Tag))
	if d := l.describe(); len(d) > 0 {
		s += p.Dim(" · " + strings.Join(d, " · "))
	}
	s += p.Dim(" · ") + state
	if len(facts) > 0 {
		s += p.Dim(" · " + strings.Join(facts, " · "))
	}
	if st := r.run.status; st != "" && r.run.active && l.end == nil {
		s += " " + p.Yellow("⚠ "+st)
	}
	return fitRow(s, v.scr.width)
}

// waitingOn names the call the stream has been waiting on longest.
func (l *prettyLane) waitingOn() string {
	var first *toolItem
	l.r.eachRunning(func(t *toolItem) {
		if first == nil || t.start.Before(first.start) || t.start.Equal(first.start) && t.call.ID < first.call.ID {
			first = t
		}
	})
	if first == nil {
		return ""
	}
	name := l.r.clean(eventtext.OneLine(first.call.Name))
	if n := l.r.running; n > 1 {
		name += " +" + eventtext.Tokens(int64(n-1))
	}
	return name
}

// spinnerAt is the spinner frame for a time.
func spinnerAt(t time.Time) string {
	n := t.UnixNano() / int64(spinnerInterval)
	return spinnerFrames[int(n%int64(len(spinnerFrames)))]
}

// moreRunning is the row that counts a lane's running calls its share of
// the region has no room for.
func (v *prettyView) moreRunning(n int) row {
	s := truncCells("… "+eventtext.Tokens(int64(n))+" more running", v.scr.width)
	return row{s: v.p.Dim(s), w: cells(s)}
}
