package parsers

// Reader is one family of input an agent writes: its headless stream, its
// saved sessions, its server's notifications. An agent that writes
// several lists them as Readers and builds its Agent's Detect and New
// from them; each family then has a parser of its own, which knows
// nothing of the others.
type Reader struct {
	// Detect scores a line for this family, as Agent.Detect does.
	Detect func(l *Line) Confidence
	// New returns a parser for a fresh stream of this family.
	New func() Parser
}

// Readers are the families of input of one agent, its main stream first.
// Their Detect is the agent's (the best score of any family), their New
// the agent's parser, which routes each line to one family's parser:
//
//	var Agent = parsers.Agent{Name: "claude", Detect: readers.Detect, New: readers.New}
//	var readers = parsers.Readers{{Detect: detect, New: newParser}, {Detect: detectTranscript, New: newTranscript}}
type Readers []Reader

// score is r.Detect(l), worked out once per line: the decoder asks the
// agent (Readers.Detect), then the router asks the families again.
func (r *Reader) score(l *Line) Confidence {
	for _, s := range l.scores[:l.nscores] {
		if s.r == r {
			return s.c
		}
	}
	c := r.Detect(l)
	if l.nscores < maxScores {
		l.scores[l.nscores] = score{r, c}
		l.nscores++
	}
	return c
}

// Detect is the best score any family gives the line.
func (rs Readers) Detect(l *Line) Confidence {
	best := No
	for i := range rs {
		if c := rs[i].score(l); c > best {
			if best = c; best == Decisive {
				break
			}
		}
	}
	return best
}

// New returns the parser of a fresh stream: it hands each line to the
// family that scores it highest. A line that no family scores higher than
// the family of the line before it stays with that family, as a line that
// says little (a bare response, a record of a type only its neighbours
// explain) follows the lines before it; the first line goes to the first
// family unless another claims it. Each family keeps its own parser,
// made on first use, from line to line (a log may switch back and forth);
// all are finished, in order, at the end.
func (rs Readers) New() Parser { return &router{rs: rs, ps: make([]Parser, len(rs))} }

// router is the Parser of Readers.New.
type router struct {
	rs  Readers
	ps  []Parser // by family, made on first use
	cur int      // the family of the last line
}

func (r *router) Parse(l *Line, emit Emit) error {
	r.cur = r.route(l)
	p := r.ps[r.cur]
	if p == nil {
		p = r.rs[r.cur].New()
		r.ps[r.cur] = p
	}
	return p.Parse(l, emit)
}

// route is the family of a line: the current one unless another scores
// it higher (the first of those that score highest).
func (r *router) route(l *Line) int {
	best, top := r.cur, r.rs[r.cur].score(l)
	if top == Decisive {
		return best
	}
	for i := range r.rs {
		if i == r.cur {
			continue
		}
		if c := r.rs[i].score(l); c > top {
			best, top = i, c
		}
	}
	return best
}

func (r *router) Finish(emit Emit) error {
	for _, p := range r.ps {
		if p == nil {
			continue
		}
		if err := p.Finish(emit); err != nil {
			return err
		}
	}
	return nil
}
