package cmd

import (
	"github.com/agentfmt/agentfmt/internal/filter"
	"github.com/agentfmt/agentfmt/internal/otlp"
	"github.com/agentfmt/agentfmt/render"
	_ "github.com/agentfmt/agentfmt/render/html" // registers -o html
	"github.com/agentfmt/agentfmt/streaming"
)

// output is the renderer as the pipeline sees it: the event filters of the
// flags in front of the real renderer, and what the end of the run needs.
//
//	session → output → Until (--until) → Sentences (--sentences) → Chatter (unless --verbose) → renderer
//
// The filters sit after the session, so the session's final answer keeps
// the --until marker (the exit status is decided on it) while everything
// shown has it stripped; Finish strips it from the answer the text
// renderer prints. (The run's figures, for the job summary, are the
// session's.)
type output struct {
	head   streaming.Handler
	rend   render.Renderer
	until  *filter.Until
	sent   *filter.Sentences
	marker *filter.Marker
	tally  tally
	// trim: -o text prints the answer without its leading and trailing
	// blank lines.
	trim bool
	// trace is the stream's --otlp trace (nil without): it sees every
	// event the filters see, and renders nothing.
	trace *otlp.Trace
}

// tally is what the command learns from the events themselves: whether
// the input held any agent JSON at all, and what could not be shown.
type tally struct {
	agent     bool // an event decoded from an agent's JSON
	plainText bool // a line of the input that is not JSON
	// unshown counts the JSON lines shown only as unknown events, by type
	// (lastUnknown: the line of the last one, counted once).
	unshown     map[string]int
	nUnshown    int
	lastUnknown int
}

func (t *tally) handle(ev *streaming.Event) {
	switch ev.Kind {
	case streaming.KindRaw:
		t.plainText = true
	case streaming.KindUnknown:
		if ev.Line > 0 && ev.Line == t.lastUnknown {
			return
		}
		t.lastUnknown = ev.Line
		if t.unshown == nil {
			t.unshown = map[string]int{}
		}
		t.unshown[ev.Type]++
		t.nUnshown++
	case streaming.KindNotice, streaming.KindStderr: // (the agent's stderr: 'agentfmt run')
	default:
		t.agent = true
	}
}

// wrapOutput puts the event filters of the flags (--until, --sentences)
// between the session and the renderer. untilMissing reports, at the end,
// whether the final answer (as the session saw it, marker included) lacks
// the --until marker.
func wrapOutput(rend render.Renderer, format string, o *Options) (out *output, untilMissing func(answer string) bool) {
	out = &output{rend: rend, trim: format == "text"}
	var h streaming.Handler = rend
	if !o.Verbose && formatShows[format].person {
		h = filter.NewChatter(h)
	}
	if formatShows[format].person {
		h = filter.NewLongLines(h) // a person's formats show a long line in pieces
	}
	if o.Sentences {
		out.sent = filter.NewSentences(h)
		h = out.sent
	}
	untilMissing = func(string) bool { return false }
	if o.Until != "" {
		out.until = filter.NewUntil(h, o.Until)
		out.marker = out.until.Marker()
		h = out.until
		untilMissing = func(answer string) bool { return !out.marker.In(answer) }
	}
	out.head = h
	return out, untilMissing
}

// UseState hands the session's state to the renderer: the filters keep
// none.
func (o *output) UseState(st streaming.State) { o.rend.UseState(st) }

// Handle passes a session event through the filters to the renderer.
func (o *output) Handle(ev *streaming.Event) error {
	o.tally.handle(ev)
	if o.trace != nil {
		_ = o.trace.Handle(ev) // (never fails)
	}
	return o.head.Handle(ev)
}

// heading puts a heading naming an input above its events, in the
// renderers that draw one.
func (o *output) heading(name string) error { return o.rend.Heading(name) }

// Flush flushes what the renderer buffers.
func (o *output) Flush() error { return o.rend.Flush() }

// Finish flushes what the filters hold back (an interrupted run ends
// without the session closing its blocks), strips the --until marker from
// the answer the renderer prints, and finishes the renderer.
func (o *output) Finish(s render.Summary) error {
	if o.until != nil {
		if err := o.until.Close(); err != nil {
			return err
		}
	}
	if o.sent != nil {
		if err := o.sent.Close(); err != nil {
			return err
		}
	}
	if o.trace != nil && s.Interrupted {
		o.trace.Close("interrupted")
	}
	s.Answer = o.shown(s.Answer)
	if o.trim {
		s.Answer = trimBlankLines(s.Answer)
	}
	return o.rend.Finish(s)
}

// shown is the answer as it is shown: without the --until marker.
func (o *output) shown(answer string) string {
	if o.marker == nil {
		return answer
	}
	return o.marker.Strip(answer)
}
