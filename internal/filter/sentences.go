package filter

import "github.com/agentfmt/agentfmt/streaming"

// Sentences adds a text.sentence event each time a sentence of assistant
// text is complete (--sentences, for chat bridges that post one bubble per
// sentence). The deltas pass unchanged; each sentence follows the delta
// that completed it, and the last one comes when the session says the
// block is final, just before its block.stop. The sentences of a block concatenate to its text (see
// split.go for the rules). A text.revision that only extends what was
// split goes on from there; one that rewrites it starts the block's
// sentences again from its new text.
type Sentences struct {
	next streaming.Handler
	open held[sentBlock]
	ev   streaming.Event
	out  []string
}

type sentBlock struct {
	tmpl streaming.Event
	sp   splitter
	done []byte // the text given out as sentences so far
}

// NewSentences returns a Sentences filter.
func NewSentences(next streaming.Handler) *Sentences {
	return &Sentences{next: next}
}

// Handle passes one event on, with the sentences it completes.
func (s *Sentences) Handle(ev *streaming.Event) error {
	switch ev.Kind {
	case streaming.KindTextDelta, streaming.KindTextRevision:
		if ev.Role != streaming.RoleUser {
			return s.text(ev)
		}
	case streaming.KindBlockStop:
		if err := s.end(s.open.take(keyOf(ev))); err != nil {
			return err
		}
	}
	return s.next.Handle(ev)
}

func (s *Sentences) text(ev *streaming.Event) error {
	k := keyOf(ev)
	b := s.open.get(k)
	if b == nil {
		b = &sentBlock{sp: newSplitter(), tmpl: template(ev, streaming.KindTextSentence)}
		s.open.add(k, b)
	}
	b.tmpl.Line, b.tmpl.Time = ev.Line, ev.Time
	if err := s.next.Handle(ev); err != nil {
		return err
	}
	text := ev.Text
	if ev.Kind == streaming.KindTextRevision {
		have := string(b.done) + string(b.sp.buf)
		if len(ev.Text) >= len(have) && ev.Text[:len(have)] == have {
			text = ev.Text[len(have):]
		} else {
			b.sp = newSplitter()
			b.done = b.done[:0]
		}
	}
	s.out = b.sp.add(text, s.out[:0])
	return s.emit(b)
}

func (s *Sentences) emit(b *sentBlock) error {
	for _, sent := range s.out {
		b.done = append(b.done, sent...)
		s.ev = b.tmpl
		s.ev.Text = sent
		if err := s.next.Handle(&s.ev); err != nil {
			return err
		}
	}
	return nil
}

// end gives out the last sentence of a block the session ended.
func (s *Sentences) end(b *sentBlock) error {
	if b == nil {
		return nil
	}
	rest := string(b.sp.buf)
	s.out = b.sp.end(s.out[:0])
	// The splitter drops white space left at the end (a block of only
	// white space gives no sentence); the sentences must still add up to
	// the text: it goes with the last sentence, or is one.
	n := 0
	for _, o := range s.out {
		n += len(o)
	}
	if n < len(rest) {
		if left := rest[n:]; len(s.out) > 0 {
			s.out[len(s.out)-1] += left
		} else {
			s.out = append(s.out, left)
		}
	}
	return s.emit(b)
}

// Close ends every block still held (an interrupted run).
func (s *Sentences) Close() error {
	for _, b := range s.open.takeAll() {
		if err := s.end(b); err != nil {
			return err
		}
	}
	return nil
}
