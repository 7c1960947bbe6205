package gemini

import "github.com/agentfmt/agentfmt/parsers"

// The gemini agent reads two families of input: the headless stream
// (parser) and Gemini CLI's saved chats (session, session.go). dispatch
// routes each line to the reader of its family.

// detectAll scores a line for the gemini agent: saved chat records first,
// then stream-json lines.
func detectAll(l *parsers.Line) parsers.Confidence {
	if c := detectSession(l); c != parsers.No {
		return c
	}
	return detect(l)
}

// dispatch is the gemini agent's parser.
type dispatch struct {
	stream *parser
	chat   *session
	inChat bool // the last line was a saved chat record
}

func newDispatch() parsers.Parser { return &dispatch{} }

func (d *dispatch) Parse(l *parsers.Line, emit parsers.Emit) error {
	switch c := detectSession(l); {
	case c == parsers.Decisive:
		d.inChat = true
	case c == parsers.No:
		d.inChat = false
	}
	if d.inChat {
		if d.chat == nil {
			d.chat = newSession()
		}
		return d.chat.Parse(l, emit)
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
	if d.chat != nil {
		return d.chat.Finish(emit)
	}
	return nil
}
