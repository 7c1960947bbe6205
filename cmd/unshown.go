package cmd

import (
	"fmt"

	"github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/streaming"
)

// A stream is not passed over in silence: when most of its JSON lines are
// of shapes the chosen parser does not know (an agent agentfmt does not
// know, or a format it changed), agentfmt says so once. A known agent's
// occasional new event type stays quiet: it shows with --verbose.

// Enough unknown lines to speak of: at least minUnshown of them, and more
// than a third of the JSON lines. While the input waits (a followed file,
// a live agent), at least minIdleUnshown: a known agent's new kinds of
// lines at its start must not be taken for a format agentfmt does not
// know, and a stream it cannot read is still spoken of as it runs.
const (
	minUnshown     = 5
	minIdleUnshown = 20
)

// unshownReason says how many JSON lines of which types could not be
// shown, "" when they are fewer than least or few among the objects.
func (t *tally) unshownReason(objects, least int) string {
	if t.nUnshown < least || 3*t.nUnshown <= objects {
		return ""
	}
	return fmt.Sprintf("%d of the %d JSON lines could not be shown (%s)", t.nUnshown, objects,
		parsers.TypeCounts(t.unshown, 6))
}

// unshownAdvice is what the reader can do about them.
const unshownAdvice = "this may be an agent agentfmt does not know: --verbose shows them, and a report with a few of them lets agentfmt learn its format"

// speakUnshown says, once, that most of the stream could not be shown,
// when at least least lines could not: when the input waits, at its end
// (before the run's footer) and when a signal stops the reading.
func (c *chain) speakUnshown(least int) error {
	if c.unshownSaid || c.sayUnshown == nil {
		return nil
	}
	why := c.out.tally.unshownReason(c.dec.Objects(), least)
	if why == "" {
		return nil
	}
	c.unshownSaid = true
	return c.sayUnshown(why + "; " + unshownAdvice)
}

// sayUnshown is how one stream says it: in the output of the formats a
// person reads, and on stderr when that output is not the terminal
// stderr is. (-o text says it in its reason: explain.)
func (p *pipeline) sayUnshown(msg string) error {
	if formatShows[p.format].person {
		ev := streaming.Event{Kind: streaming.KindNotice, Text: msg}
		if err := p.out.Handle(&ev); err != nil {
			return err
		}
		if p.env.isTerminal(p.env.Stdout) {
			return nil
		}
	}
	warnf(p.stderr, "%s", msg)
	return nil
}
