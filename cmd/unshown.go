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
// than a third of the JSON lines.
const minUnshown = 5

// unshownReason says how many JSON lines of which types could not be
// shown, "" when they are few.
func (t *tally) unshownReason(objects int) string {
	if t.nUnshown < minUnshown || 3*t.nUnshown <= objects {
		return ""
	}
	return fmt.Sprintf("%d of the %d JSON lines could not be shown (%s)", t.nUnshown, objects,
		parsers.TypeCounts(t.unshown, 6))
}

// unshownAdvice is what the reader can do about them.
const unshownAdvice = "this may be an agent agentfmt does not know: --verbose shows them, and a report with a few of them lets agentfmt learn its format"

// sayUnshown says, at the end of the input and before the run's footer,
// that most of the stream could not be shown: in the output of the
// formats a person reads, and on stderr when that output is not the
// terminal stderr is. (-o text says it in its reason: explain.)
func (p *pipeline) sayUnshown() error {
	why := p.out.tally.unshownReason(p.dec.Objects())
	if why == "" || p.format == "text" {
		return nil
	}
	msg := why + "; " + unshownAdvice
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
