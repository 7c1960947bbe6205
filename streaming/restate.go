package streaming

import "strings"

// restatement is an agent repeating a block of an open message in pieces
// (Session.Restate), kept by the message that takes what is new: the
// block it repeats, how far it got, and whether it departed from it (then
// it is new text, and so is all that follows).
type restatement struct {
	src      *block   // the block repeated (nil: none, all is new text)
	srcMsg   *message // its message: once it is no longer open, what follows is new
	of       string   // the id of the message repeated
	dst      int      // the block that takes what is new
	kind     Kind
	start    int  // where the repetition began in src (white space before it aside)
	at       int  // how much of src is repeated so far
	begun    bool // a piece other than white space came
	departed bool
	// held is the last character of a piece that may be the start of
	// what the block holds once folded with the next piece (see fold): a
	// CR before an LF, a letter before its accent.
	held string
}

// restate judges one piece of a restatement (see Session.Restate) and
// shows what is new of it in ev's block of m, the open message of ev.
func (s *Session) restate(m *message, ev *Event) error {
	rs := m.rs
	if rs == nil || rs.dst != ev.Block || rs.kind != ev.Kind || rs.of != ev.Restates {
		rs = &restatement{dst: ev.Block, kind: ev.Kind}
		if o := s.msgs[ev.Restates]; o != nil {
			if c := o.cur; c != nil && c.key.kind == ev.Kind && (o != m || c.key.index != ev.Block) && c.text.Len() > 0 {
				rs.src, rs.srcMsg = c, o
			}
		}
		if o := s.msgs[ev.Restates]; o != nil {
			rs.of = o.id // kept past the call: the message's own copy
		} else {
			rs.of = strings.Clone(ev.Restates)
		}
		m.rs = rs
	}
	t := ev.Text
	if rs.held != "" {
		t, rs.held = rs.held+t, ""
	}
	if rs.src != nil && !rs.departed && s.msgs[rs.of] != rs.srcMsg {
		// The message repeated stopped (its text is let go): the
		// restatement is over, what follows is new.
		rs.departed = true
	}
	if rs.src == nil || rs.departed {
		return s.showNew(m, ev, t)
	}
	src := &rs.src.text
	if !rs.begun {
		// White space before the restatement, or before the block, is
		// not told apart.
		i := 0
		for i < len(t) && isSpace(t[i]) {
			i++
		}
		if t = t[i:]; t == "" {
			return nil
		}
		rs.start, _ = src.span()
		rs.at, rs.begun = rs.start, true
	}
	k := src.matchAt(rs.at, t)
	if k < len(t) && rs.at+k < src.Len() {
		// The same text with other line ends or in another Unicode form
		// is the same text.
		if f := fold(t); f != t {
			if kf := src.matchAt(rs.at, f); kf == len(f) || rs.at+kf == src.Len() || kf > k && startsFolded(src, rs.at+kf, f[kf:]) {
				t, k = f, kf
			}
		}
	}
	switch {
	case k < len(t) && rs.at+k < src.Len() && startsFolded(src, rs.at+k, t[k:]):
		rs.at += k
		rs.held = t[k:]
		s.stats.Duplicates++
		return nil
	case k == len(t):
		rs.at += k
		s.stats.Duplicates++
		return nil
	case rs.at+k == src.Len():
		// Past the block's end: what follows is new (white space alone is
		// the restatement's own).
		rs.at += k
		rest := t[k:]
		if trimSpace(rest) == "" {
			return nil
		}
		rs.departed = true
		s.report(ev.Line, "restatement of %q goes on past the block: %d bytes shown", ev.Message, len(rest))
		return s.showNew(m, ev, rest)
	}
	// It departs from the block: it is not a repetition, and is shown
	// whole.
	rs.departed = true
	s.report(ev.Line, "restatement of %q departs from the block after %d bytes: shown as new text", ev.Message, rs.at+k-rs.start)
	return s.showNew(m, ev, src.slice(rs.start, rs.at+k)+t[k:])
}

// showNew shows text as new text of ev's block of m.
func (s *Session) showNew(m *message, ev *Event, text string) error {
	e := *ev
	e.Text, e.Restates = text, ""
	return s.show(m, &e, Delta, true)
}
