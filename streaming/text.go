package streaming

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
)

type blockKey struct {
	kind  Kind
	index int
}

// block is a text or thinking block of a message: its text, kept once.
type block struct {
	key  blockKey
	part string // the agent's id of the block (Event.Part), if it names it
	text text
	open bool // text was passed on since the block's last block.stop
}

type message struct {
	agent  string
	id     string
	role   string
	parent string
	seq    uint64
	blocks []*block
	cur    *block       // the block that passed text on last
	next   int          // the index the next part gets: one past every index so far
	rs     *restatement // the restatement being sent (Session.Restate), if any
	shown  []shownBlock // blocks shown before the message was reopened (late)
}

// stopped is what the session remembers of a message that stopped: which
// of its blocks it showed, not their text.
type stopped struct {
	blocks []shownBlock
	next   int
	answer *message // the message, when it stopped as the run's answer (it keeps its text)
}

// shownBlock names a block that was shown: its key, and the hash of its
// part id when it had one.
type shownBlock struct {
	key  blockKey
	part uint64
}

// block returns the block of ev (by its Part, or its Block index),
// adding it when the message has none.
func (m *message) block(ev *Event) *block {
	if ev.Part != "" {
		for i := len(m.blocks) - 1; i >= 0; i-- {
			if b := m.blocks[i]; b.part == ev.Part && b.key.kind == ev.Kind {
				return b
			}
		}
		b := &block{key: blockKey{kind: ev.Kind, index: m.next}, part: strings.Clone(ev.Part)}
		m.next++
		m.blocks = append(m.blocks, b)
		return b
	}
	k := blockKey{kind: ev.Kind, index: ev.Block}
	for i := len(m.blocks) - 1; i >= 0; i-- {
		if m.blocks[i].key == k {
			return m.blocks[i]
		}
	}
	b := &block{key: k}
	m.next = max(m.next, k.index+1)
	m.blocks = append(m.blocks, b)
	return b
}

// answerBlocks returns the message's non-empty text blocks: its answer.
func (m *message) answerBlocks() (one *block, n int) {
	for _, b := range m.blocks {
		if b.key.kind == KindTextDelta && b.text.Len() > 0 {
			if n == 0 {
				one = b
			}
			n++
		}
	}
	return one, n
}

// answerText is the message's text blocks in the order of their indexes,
// one paragraph each.
func (m *message) answerText() string {
	one, n := m.answerBlocks()
	switch n {
	case 0:
		return ""
	case 1:
		return one.text.String()
	}
	blocks := make([]*block, 0, n)
	for _, b := range m.blocks {
		if b.key.kind == KindTextDelta && b.text.Len() > 0 {
			blocks = append(blocks, b)
		}
	}
	slices.SortStableFunc(blocks, func(a, b *block) int { return cmp.Compare(a.key.index, b.key.index) })
	var sb strings.Builder
	for _, b := range blocks {
		if t := sb.String(); t != "" && !strings.HasSuffix(t, "\n") {
			sb.WriteString("\n\n")
		}
		sb.WriteString(b.text.String())
	}
	return sb.String()
}

// snapshotAsDelta reports whether a text or thinking delta is a snapshot
// sent as a delta: it begins with all of the block's
// accumulated text, which is at least SnapshotMinBytes long, and it is
// longer than that text. An exact repeat is not: it is genuine new text.
// This is the only place the rule is written; tool output is never
// judged by it.
func snapshotAsDelta(accumulated *text, delta string) bool {
	return accumulated.Len() >= SnapshotMinBytes && len(delta) > accumulated.Len() && accumulated.PrefixOf(delta)
}

func (s *Session) messageStart(ev *Event) error {
	if _, ok := s.msgs[ev.Message]; ok {
		s.stats.Duplicates++
		s.report(ev.Line, "message %q started twice; second start ignored", ev.Message)
		return nil
	}
	s.openMessage(ev.Agent, ev.Message, ev.Role, ev.Parent)
	return s.out.Handle(ev)
}

func (s *Session) openMessage(agent, id, role, parent string) *message {
	if role == "" {
		role = RoleAssistant
	}
	switch role { // the common roles without a copy
	case RoleAssistant:
		role = RoleAssistant
	case RoleUser:
		role = RoleUser
	default:
		role = strings.Clone(role)
	}
	s.seq++
	m := &message{agent: s.intern(agent), id: strings.Clone(id), role: role, parent: strings.Clone(parent), seq: s.seq}
	s.msgs[m.id] = m
	return m
}

func (s *Session) messageStop(ev *Event) error {
	m, ok := s.msgs[ev.Message]
	if !ok {
		s.stats.Duplicates++
		s.report(ev.Line, "message %q stopped but not open; ignored", ev.Message)
		return nil
	}
	if err := s.stopBlocks(m, ev.Line); err != nil {
		return err
	}
	s.forget(m)
	s.ev = *ev
	if s.ev.Role == "" {
		s.ev.Role = m.role
	}
	if s.ev.Parent == "" {
		s.ev.Parent = m.parent
	}
	return s.out.Handle(&s.ev)
}

// forget ends a message: the session remembers which blocks it showed,
// and keeps its text only when it is the run's answer.
func (s *Session) forget(m *message) {
	delete(s.msgs, m.id)
	if c := s.tools[m.parent]; c != nil && m.parent != "" && m.role == RoleAssistant {
		// The work under a call said this last: its answer, if the call's
		// output repeats it (toolEnd).
		if a := m.answerText(); a != "" {
			c.answer, c.hasAnswer = s.answerHash(a), true
		}
	}
	st := &stopped{blocks: m.shown, next: m.next}
	m.shown = nil
	for _, b := range m.blocks {
		if b.text.Len() > 0 {
			st.blocks = append(st.blocks, shownBlock{key: b.key, part: s.partHash(b.part)})
		}
	}
	if s.run.answer.msg == m {
		st.answer = m
	} else {
		m.release()
	}
	s.stopped.put(m.id, st)
}

// release gives the pieces of m's texts back to the session's pool.
func (m *message) release() {
	for _, b := range m.blocks {
		b.text.release()
	}
}

// dropAnswer is called when the run's answer becomes the message next (or
// nothing): the last answer's texts are let go if it has stopped.
func (s *Session) dropAnswer(next *message) {
	if old := s.run.answer.msg; old != nil && old != next && s.msgs[old.id] != old {
		old.release()
	}
}

// partHash is the hash a stopped message keeps of a part id (0: none).
func (s *Session) partHash(part string) uint64 {
	if part == "" {
		return 0
	}
	return maphash.String(s.stopped.seed, part) | 1
}

// showed reports whether the stopped message st showed the block of ev.
func (s *Session) showed(st *stopped, ev *Event) bool {
	part := s.partHash(ev.Part)
	for _, b := range st.blocks {
		if b.key.kind == ev.Kind && (part != 0 && b.part == part || part == 0 && b.part == 0 && b.key.index == ev.Block) {
			return true
		}
	}
	return false
}

// late handles a snapshot or final for a message that stopped in this run
// (rule 5: identity decides). A block the message showed was shown: the
// repeat is dropped. A block it did not show is new text: it is shown in
// the message, reopened for it and stopped again.
func (s *Session) late(ev *Event, mode Mode, st *stopped) error {
	if ev.Text == "" || s.showed(st, ev) {
		s.stats.Duplicates++
		s.report(ev.Line, "%s for finished message %q dropped", mode, ev.Message)
		return nil
	}
	s.report(ev.Line, "%s for finished message %q shows a block it did not show; message reopened", mode, ev.Message)
	m := st.answer
	if m != nil && m == s.run.answer.msg {
		s.msgs[m.id] = m // the run's answer (it keeps its text): the late block adds to it
	} else {
		m = s.openMessage(ev.Agent, ev.Message, ev.Role, ev.Parent)
	}
	if err := s.startImplicitly(m, ev); err != nil {
		return err
	}
	m.shown, m.next = st.blocks, max(m.next, st.next)
	// A late block of another message than the answer does not make it
	// the answer: the answer is the last message that showed text.
	a := s.run.answer
	if mode == Restate {
		mode = Final // a block the message did not show: new text
	}
	if err := s.show(m, ev, mode, m == a.msg || a.msg == nil && a.text == ""); err != nil {
		return err
	}
	return s.stop(m, ev.Line)
}

// stop ends the open message m on the session's own account (a late
// block shown, a result, a new run, the end of input).
func (s *Session) stop(m *message, line int) error {
	if err := s.stopBlocks(m, line); err != nil {
		return err
	}
	s.forget(m)
	s.ev = Event{Kind: KindMessageStop, Agent: m.agent, Line: line, Message: m.id, Role: m.role, Parent: m.parent}
	return s.out.Handle(&s.ev)
}

// startImplicitly sends the message.start of m, which ev opened: a
// message that had not started (a stream joined mid-way) or that had
// stopped.
func (s *Session) startImplicitly(m *message, ev *Event) error {
	s.stats.Implicit++
	s.ev = Event{Kind: KindMessageStart, Agent: ev.Agent, Line: ev.Line, Time: ev.Time,
		Message: m.id, Role: m.role, Parent: m.parent}
	return s.out.Handle(&s.ev)
}

func (s *Session) text(ev *Event, mode Mode) error {
	m, open := s.msgs[ev.Message]
	if !open && mode != Delta {
		if st, ok := s.stopped.get(ev.Message); ok {
			return s.late(ev, mode, st)
		}
	}
	if !open {
		m = s.openMessage(ev.Agent, ev.Message, ev.Role, ev.Parent)
		if err := s.startImplicitly(m, ev); err != nil {
			return err
		}
	}
	if mode == Restate {
		return s.restate(m, ev)
	}
	return s.show(m, ev, mode, true)
}

// show passes on what ev adds to its block of the open message m, which
// becomes the run's answer if it is a top-level assistant message and
// isAnswer is set.
func (s *Session) show(m *message, ev *Event, mode Mode, isAnswer bool) error {
	b := m.block(ev)
	b.text.pool = &s.pool
	t := ev.Text
	if mode == Delta && snapshotAsDelta(&b.text, t) {
		n := b.text.Len()
		s.stats.SnapshotAsDelta++
		s.report(ev.Line, "snapshot sent as a delta (%d bytes repeat the block); only the new %d bytes kept", n, len(t)-n)
		if s.opts.Strict {
			return &ContractError{Line: ev.Line,
				Msg: fmt.Sprintf("%s repeats the whole block so far (%d bytes): a snapshot sent as a delta", ev.Kind, n)}
		}
		t = t[n:]
	}
	delta, revised := s.merge(&b.text, mode, t, ev.Line)
	if !revised && delta == "" {
		return nil
	}
	if c := m.cur; c != b {
		// A new block of the message: the one before it is final.
		if c != nil && c.open {
			if err := s.blockStop(m, c, ev.Line); err != nil {
				return err
			}
		}
		m.cur = b
	}
	b.open = true
	s.ev = *ev
	s.ev.Role = m.role
	s.ev.Parent = m.parent
	s.ev.Restates = ""
	s.ev.Block = b.key.index
	if revised {
		s.stats.Revisions++
		s.ev.Text = b.text.String()
		if ev.Kind == KindTextDelta {
			s.ev.Kind = KindTextRevision
		} else {
			s.ev.Kind = KindThinkingRevision
		}
	} else {
		s.ev.Text = delta
	}
	s.run.curMsg, s.run.cur = m, b
	if ev.Kind == KindTextDelta && m.role == RoleAssistant && m.parent == "" {
		s.run.sawText = true
		if isAnswer {
			s.dropAnswer(m)
			s.run.answer = answer{msg: m}
		}
	}
	return s.out.Handle(&s.ev)
}

// merge folds t, sent in mode, into acc (the text of a block or a tool
// call's output) and returns the new text to pass on, or revised when a
// snapshot or final rewrote it (acc then holds the new text). A delta is
// appended as it is.
func (s *Session) merge(acc *text, mode Mode, t string, line int) (delta string, revised bool) {
	if mode == Delta {
		acc.Append(t)
		return t, false
	}
	switch {
	case acc.Equal(t):
		if t != "" {
			s.stats.Duplicates++
		}
		return "", false
	case acc.PrefixOf(t):
		rest := t[acc.Len():]
		acc.Append(rest)
		return rest, false
	case acc.HasPrefix(t):
		// An older, shorter snapshot: nothing new.
		s.stats.Duplicates++
		return "", false
	case acc.EqualTrimmed(t):
		// The block again, but for the white space around it (a recap).
		s.stats.Duplicates++
		return "", false
	}
	// The block again with other line ends or in another Unicode form
	// (see fold): nothing new, or only what it adds.
	held := acc.String()
	if fh, f := fold(held), fold(t); fh != held || f != t {
		switch {
		case fh == f || trimSpace(fh) == trimSpace(f):
			s.stats.Duplicates++
			return "", false
		case fh == held && strings.HasPrefix(f, held):
			rest := f[len(held):]
			acc.Append(rest)
			return rest, false
		}
	}
	s.report(line, "%s rewrites the block (%d bytes were shown); shown as a revision", mode, acc.Len())
	acc.Reset()
	acc.Append(t)
	return "", true
}

// blockStop announces that the block b of m is final (rule 4).
func (s *Session) blockStop(m *message, b *block, line int) error {
	b.open = false
	if s.run.cur == b {
		s.run.curMsg, s.run.cur = nil, nil
	}
	s.ev = Event{Kind: KindBlockStop, Agent: m.agent, Line: line, Message: m.id, Role: m.role, Parent: m.parent,
		Block: b.key.index, Part: b.part, BlockKind: b.key.kind}
	return s.out.Handle(&s.ev)
}

// stopBlocks announces the blocks of m still open as final, in the order
// they began: the message stops.
func (s *Session) stopBlocks(m *message, line int) error {
	for _, b := range m.blocks {
		if b.open {
			if err := s.blockStop(m, b, line); err != nil {
				return err
			}
		}
	}
	return nil
}

// closeMessages closes the open messages in the order they started.
func (s *Session) closeMessages(line int) error {
	if len(s.msgs) == 0 {
		return nil
	}
	open := make([]*message, 0, len(s.msgs))
	for _, m := range s.msgs {
		open = append(open, m)
	}
	slices.SortFunc(open, func(a, b *message) int { return cmpSeq(a.seq, b.seq) })
	for _, m := range open {
		if err := s.stop(m, line); err != nil {
			return err
		}
	}
	return nil
}

func cmpSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
