package parsers

import (
	"errors"
	"io"
	"iter"

	kit "github.com/agentfmt/agentfmt/internal/parsers"
	"github.com/agentfmt/agentfmt/internal/parsers/all"
	"github.com/agentfmt/agentfmt/streaming"
)

// Options configure Read.
type Options struct {
	// Agent names the agent that wrote the stream (one of Agents); ""
	// detects it from the first lines, and again where a concatenated log
	// switches agent.
	Agent string
	// Strict ends the reading with an error at the first line that is not
	// JSON or that breaks the streaming contract, instead of showing the
	// line as a raw event or repairing the contract.
	Strict bool
	// Lend yields events whose strings and slices are the reading's own
	// memory, valid only until the loop asks for the next event: faster,
	// for a loop that keeps nothing (or keeps a Clone of what it keeps).
	Lend bool
}

// Agents lists the names Options.Agent accepts, in detection priority
// order.
func Agents() []string { return all.Names() }

// errStopped ends the reading when the loop breaks.
var errStopped = errors.New("parsers: the loop stopped")

// Read yields the events of the agent stream r, in order, each owned by
// the loop (unless Options.Lend): lines of any length, CRLF, a BOM, a
// file holding one JSON array or one pretty-printed document. What is
// not an agent's JSON is a raw event. An error (reading r, an unknown
// Options.Agent, a line Options.Strict refuses) is yielded once, with a
// zero Event, and ends the reading. Breaking out of the loop stops it.
func Read(r io.Reader, opts Options) iter.Seq2[streaming.Event, error] {
	return func(yield func(streaming.Event, error) bool) {
		stopped := false
		sess := streaming.NewSession(streaming.HandlerFunc(func(ev *streaming.Event) error {
			if stopped {
				return errStopped
			}
			e := *ev
			if !opts.Lend {
				e = ev.Clone()
			}
			if !yield(e, nil) {
				stopped = true
				return errStopped
			}
			return nil
		}), streaming.Options{Strict: opts.Strict})
		dec, err := kit.NewDecoder(all.Agents(), kit.DecoderOptions{Force: opts.Agent, Strict: opts.Strict}, sess)
		if err == nil {
			err = dec.ReadAll(r)
		}
		if err == nil {
			err = sess.Close()
		}
		if err != nil && !stopped {
			yield(streaming.Event{}, err)
		}
	}
}
