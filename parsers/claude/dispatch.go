package claude

import "github.com/agentfmt/agentfmt/parsers"

// The claude agent reads two families of input: the headless stream-json
// (parser) and Claude Code's session transcripts (transcript,
// transcript.go). dispatch routes each line to the reader of its family.

// detectAll scores a line for the claude agent: transcript records first,
// then stream-json frames.
func detectAll(l *parsers.Line) parsers.Confidence {
	if c := detectTranscript(l); c != parsers.No {
		return c
	}
	return detect(l)
}

// dispatch is the claude agent's parser.
type dispatch struct {
	stream *parser
	tr     *transcript
	inTr   bool // the last line was a transcript record
}

func newDispatch() parsers.Parser { return &dispatch{} }

func (d *dispatch) Parse(l *parsers.Line, emit parsers.Emit) error {
	switch {
	case detectTranscript(l) != parsers.No:
		d.inTr = true
	case l.Has("session_id") || l.Has("parent_tool_use_id"):
		d.inTr = false
	}
	if d.inTr {
		if d.tr == nil {
			d.tr = newTranscript()
		}
		return d.tr.Parse(l, emit)
	}
	if d.stream == nil {
		d.stream = newParser()
	}
	return d.stream.Parse(l, emit)
}

func (d *dispatch) Finish(emit parsers.Emit) error {
	if d.stream != nil {
		if err := d.stream.Finish(emit); err != nil {
			return err
		}
	}
	if d.tr != nil {
		return d.tr.Finish(emit)
	}
	return nil
}
