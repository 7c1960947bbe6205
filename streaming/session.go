package streaming

import (
	"fmt"
	"hash/maphash"
	"unsafe"
)

// SnapshotMinBytes is how much accumulated text a delta must repeat before
// it is taken for a snapshot sent as a delta (DESIGN §4 rule 3). Shorter
// repeats are genuine: "=" then "=" is two characters.
const SnapshotMinBytes = 32

// finishedMemory is how many finished message and tool ids the session
// remembers to drop late duplicates. It bounds memory on endless streams.
const finishedMemory = 512

// Handler receives the session's output. The event is valid only during
// the call; a handler that keeps it must copy it. That includes its
// strings: the text of deltas and the output of tool calls can be lent
// from the decoder's line buffers (see Options.Lent), which the next
// input line overwrites.
type Handler interface {
	Handle(ev *Event) error
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ev *Event) error

// Handle calls f.
func (f HandlerFunc) Handle(ev *Event) error { return f(ev) }

// Options tune a Session.
type Options struct {
	// Strict makes contract violations fatal (a *ContractError).
	Strict bool
	// Report, when set, receives contract repairs and other decisions with
	// their input line (--debug).
	Report func(line int, msg string)
	// Lent, when set, reports the strings of pushed events that are only
	// valid until the next Settle (the decoder lends the text of deltas
	// and tool outputs from its line buffers): the session copies those
	// it still keeps when Settle is called.
	Lent func(s string) bool
}

// ContractError is a violation of the streaming contract under Strict.
type ContractError struct {
	Line int
	Msg  string
}

func (e *ContractError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// ExitCode is 65 (EX_DATAERR).
func (e *ContractError) ExitCode() int { return 65 }

// Outcome is what the stream says about the agent's run.
type Outcome int

// Outcomes, in the order of their exit codes.
const (
	Success    Outcome = iota // the run finished and the agent reported success
	Failure                   // the agent reported failure
	Incomplete                // the stream ended before the run did
)

func (o Outcome) String() string {
	switch o {
	case Success:
		return "success"
	case Failure:
		return "failure"
	}
	return "incomplete"
}

// Stats counts what the session repaired or dropped.
type Stats struct {
	SnapshotAsDelta int // deltas that repeated the whole block (rule 3)
	Duplicates      int // finals, starts and ends already seen (rule 5)
	Revisions       int // snapshots or finals that rewrote a block
	Implicit        int // messages and tools opened without a start (rule 4)
	Runs            int // session.start events that began a run
}

type blockKey struct {
	kind  Kind
	index int
}

type block struct {
	key  blockKey
	text []byte
}

type message struct {
	id     string
	role   string
	parent string
	blocks []*block
	closed bool
}

func (m *message) block(k blockKey) *block {
	for i := len(m.blocks) - 1; i >= 0; i-- {
		if m.blocks[i].key == k {
			return m.blocks[i]
		}
	}
	b := &block{key: k}
	m.blocks = append(m.blocks, b)
	return b
}

type toolCall struct {
	id     string
	name   string
	parent string
	input  string
	title  string
	subj   string
	output []byte
	ended  bool
}

// lentText is a block's or a tool's text that is a lent string (see
// Options.Lent), until Settle copies it, if its owner is still open.
type lentText struct {
	text   *[]byte
	closed *bool
}

// run is the state of one agent run (from one session.start to the next).
type run struct {
	hasResult bool
	ok        bool
	reason    string
	sawText   bool     // assistant text was shown in this run
	answerMsg *message // the last top-level assistant message with text
	answer    []byte   // its text
	answerEnd *block   // the block the answer ends with (nil: recompute on the next delta)
}

// Session enforces the streaming contract of DESIGN §4 between parsers and
// renderers. Parsers Push events whose text-like payloads may be deltas,
// snapshots or finals; the Session passes on only true deltas, opens and
// closes messages and tool calls, drops duplicates by identity, and keeps
// the run's outcome. It is not safe for concurrent use.
type Session struct {
	out   Handler
	opts  Options
	stats Stats

	msgs     map[string]*message
	msgOrder []string // open messages in start order, for closing at EOF
	tools    map[string]*toolCall
	toolOrd  []string
	finished ring // finished message ids
	ended    ring // ended tool ids

	run     run
	started bool // any event at all
	closed  bool

	ev Event // scratch event handed to out, to avoid an allocation per delta

	lent []lentText // kept texts that are lent strings, until Settle
}

// NewSession returns a session that passes its output to out.
func NewSession(out Handler, opts Options) *Session {
	return &Session{
		out:      out,
		opts:     opts,
		msgs:     make(map[string]*message),
		tools:    make(map[string]*toolCall),
		finished: newRing(finishedMemory),
		ended:    newRing(finishedMemory),
	}
}

// Stats returns the repair counters so far.
func (s *Session) Stats() Stats { return s.stats }

// Outcome returns the outcome of the last run and, for a failure or an
// incomplete run, why.
func (s *Session) Outcome() (Outcome, string) {
	if !s.run.hasResult {
		return Incomplete, "the stream ended before the run finished"
	}
	if s.run.ok {
		return Success, ""
	}
	return Failure, s.run.reason
}

// FinalAnswer is the final answer of the last run: the result's text when
// the agent gave one, else the last top-level assistant message.
func (s *Session) FinalAnswer() string { return string(s.run.answer) }

func (s *Session) report(line int, format string, args ...any) {
	if s.opts.Report != nil {
		s.opts.Report(line, fmt.Sprintf(format, args...))
	}
}

func (s *Session) emit(ev *Event) error {
	return s.out.Handle(ev)
}

// Push hands one parser event to the session.
func (s *Session) Push(ev *Event) error {
	s.started = true
	switch ev.Kind {
	case KindSessionStart:
		return s.sessionStart(ev)
	case KindMessageStart:
		return s.messageStart(ev)
	case KindMessageStop:
		return s.messageStop(ev)
	case KindTextDelta, KindThinkingDelta:
		return s.text(ev)
	case KindToolStart:
		return s.toolStart(ev)
	case KindToolOutputDelta:
		return s.toolOutput(ev)
	case KindToolEnd:
		return s.toolEnd(ev)
	case KindResult:
		return s.result(ev)
	}
	return s.emit(ev)
}

func (s *Session) sessionStart(ev *Event) error {
	if err := s.endRun(ev.Line, "a new run began before this one finished"); err != nil {
		return err
	}
	s.run = run{answer: s.run.answer[:0]} // (the answer's buffer is reused)
	s.stats.Runs++
	return s.emit(ev)
}

// endRun closes what a run left open when another run starts.
func (s *Session) endRun(line int, why string) error {
	if s.stats.Runs == 0 && !s.run.hasResult && len(s.msgs) == 0 && len(s.tools) == 0 {
		return nil
	}
	if err := s.closeOpen(line); err != nil {
		return err
	}
	if !s.run.hasResult && s.stats.Runs > 0 {
		return s.notice(line, why)
	}
	return nil
}

func (s *Session) notice(line int, text string) error {
	s.ev = Event{Kind: KindNotice, Line: line, Text: text}
	return s.emit(&s.ev)
}

func (s *Session) messageStart(ev *Event) error {
	if _, ok := s.msgs[ev.Message]; ok {
		s.stats.Duplicates++
		s.report(ev.Line, "message %q started twice; second start ignored", ev.Message)
		return nil
	}
	s.openMessage(ev.Message, ev.Role, ev.Parent)
	return s.emit(ev)
}

func (s *Session) openMessage(id, role, parent string) *message {
	if role == "" {
		role = RoleAssistant
	}
	m := &message{id: id, role: role, parent: parent}
	s.msgs[id] = m
	s.msgOrder = append(s.msgOrder, id)
	return m
}

func (s *Session) messageStop(ev *Event) error {
	m, ok := s.msgs[ev.Message]
	if !ok {
		s.stats.Duplicates++
		s.report(ev.Line, "message %q stopped but not open; ignored", ev.Message)
		return nil
	}
	s.forget(m)
	if ev.Role == "" {
		ev.Role = m.role
	}
	if ev.Parent == "" {
		ev.Parent = m.parent
	}
	return s.emit(ev)
}

func (s *Session) forget(m *message) {
	delete(s.msgs, m.id)
	m.closed = true
	for i, id := range s.msgOrder {
		if id == m.id {
			s.msgOrder = append(s.msgOrder[:i], s.msgOrder[i+1:]...)
			break
		}
	}
	s.finished.add(m.id)
}

// ensureMessage returns the open message ev belongs to, opening it
// implicitly (a stream joined mid-way) when it has not started.
func (s *Session) ensureMessage(ev *Event) (*message, error) {
	if m, ok := s.msgs[ev.Message]; ok {
		return m, nil
	}
	s.stats.Implicit++
	m := s.openMessage(ev.Message, ev.Role, ev.Parent)
	s.ev = Event{Kind: KindMessageStart, Agent: ev.Agent, Line: ev.Line, Time: ev.Time,
		Message: m.id, Role: m.role, Parent: m.parent}
	return m, s.emit(&s.ev)
}

func (s *Session) text(ev *Event) error {
	if ev.Mode != Delta && s.finished.has(ev.Message) {
		// A final or snapshot of a message that has already stopped: its
		// text was shown (rule 5).
		if _, open := s.msgs[ev.Message]; !open {
			s.stats.Duplicates++
			s.report(ev.Line, "%s for finished message %q dropped", ev.Mode, ev.Message)
			return nil
		}
	}
	m, err := s.ensureMessage(ev)
	if err != nil {
		return err
	}
	b := m.block(blockKey{kind: ev.Kind, index: ev.Block})
	delta, revised, err := s.merge(&b.text, &m.closed, ev)
	if err != nil {
		return err
	}
	if !revised && delta == "" {
		return nil
	}
	s.ev = *ev
	s.ev.Mode = Delta
	s.ev.Role = m.role
	s.ev.Parent = m.parent
	if revised {
		s.stats.Revisions++
		s.ev.Text = string(b.text)
		if ev.Kind == KindTextDelta {
			s.ev.Kind = KindTextRevision
		} else {
			s.ev.Kind = KindThinkingRevision
		}
	} else {
		s.ev.Text = delta
	}
	if ev.Kind == KindTextDelta && m.role == RoleAssistant && m.parent == "" {
		s.noteAnswer(m, b, revised, delta)
	}
	return s.emit(&s.ev)
}

// noteAnswer keeps the text of the last top-level assistant message: the
// final answer when the agent gives none.
func (s *Session) noteAnswer(m *message, b *block, revised bool, delta string) {
	s.run.sawText = true
	if s.run.answerMsg == m && s.run.answerEnd == b && !revised {
		// The common case: more text for the block the answer ends with.
		s.run.answer = append(s.run.answer, delta...)
		return
	}
	// Another message, another block of this one, or a block rewritten:
	// the answer is the message's text blocks, in order, one paragraph
	// each (b.text already holds the new text).
	s.run.answerMsg = m
	s.run.answerEnd = nil
	s.run.answer = s.run.answer[:0]
	for _, blk := range m.blocks {
		if blk.key.kind != KindTextDelta || len(blk.text) == 0 {
			continue
		}
		if n := len(s.run.answer); n > 0 && s.run.answer[n-1] != '\n' {
			s.run.answer = append(s.run.answer, "\n\n"...)
		}
		s.run.answer = append(s.run.answer, blk.text...)
		// When b is not the last text block (text for an earlier block),
		// answerEnd stays nil and the next delta recomputes.
		s.run.answerEnd = nil
		if blk == b {
			s.run.answerEnd = b
		}
	}
}

// merge folds ev.Text into acc (the text of a block or tool that is kept
// until *closed) according to ev.Mode and returns the new text to pass on,
// or revised when the block was rewritten.
func (s *Session) merge(acc *[]byte, closed *bool, ev *Event) (delta string, revised bool, err error) {
	t := ev.Text
	have := *acc
	switch ev.Mode {
	case Delta:
		if len(have) >= SnapshotMinBytes && len(t) >= len(have) && t[:len(have)] == string(have) {
			s.stats.SnapshotAsDelta++
			s.report(ev.Line, "snapshot sent as a delta (%d bytes repeat the block); only the new %d bytes kept",
				len(have), len(t)-len(have))
			if s.opts.Strict {
				return "", false, &ContractError{Line: ev.Line,
					Msg: fmt.Sprintf("%s repeats the whole block so far (%d bytes): a snapshot sent as a delta", ev.Kind, len(have))}
			}
			t = t[len(have):]
		}
		*acc = append(have, t...)
		return t, false, nil
	default: // Snapshot, Final
		switch {
		case t == string(have):
			if t != "" {
				s.stats.Duplicates++
			}
			return "", false, nil
		case len(have) == 0:
			// A whole block at once (a frame's final text): kept as it
			// came, without a copy. The slice's capacity ends with the
			// text, so an append never writes into the string; nothing
			// else writes into a block's text.
			*acc = unsafe.Slice(unsafe.StringData(t), len(t))
			if s.opts.Lent != nil && s.opts.Lent(t) {
				s.lent = append(s.lent, lentText{text: acc, closed: closed})
			}
			return t, false, nil
		case len(t) > len(have) && t[:len(have)] == string(have):
			*acc = append(have, t[len(have):]...)
			return t[len(have):], false, nil
		case len(t) < len(have) && string(have[:len(t)]) == t:
			// An older, shorter snapshot: nothing new.
			s.stats.Duplicates++
			return "", false, nil
		}
		s.report(ev.Line, "%s rewrites the block (%d bytes were shown); shown as a revision", ev.Mode, len(have))
		*acc = append([]byte(nil), t...) // a fresh copy: have may be a kept string
		return "", true, nil
	}
}

func (s *Session) toolStart(ev *Event) error {
	if _, ok := s.tools[ev.ID]; ok || (ev.ID != "" && s.ended.has(ev.ID)) {
		s.stats.Duplicates++
		s.report(ev.Line, "tool call %q started twice; second start ignored", ev.ID)
		return nil
	}
	s.tools[ev.ID] = &toolCall{id: ev.ID, name: ev.Name, parent: ev.Parent, input: ev.Input, title: ev.Title, subj: ev.Subject}
	s.toolOrd = append(s.toolOrd, ev.ID)
	return s.emit(ev)
}

// ensureTool returns the open tool call of ev, starting it implicitly.
func (s *Session) ensureTool(ev *Event) (*toolCall, error) {
	if t, ok := s.tools[ev.ID]; ok {
		return t, nil
	}
	s.stats.Implicit++
	s.report(ev.Line, "tool call %q has no start; started implicitly", ev.ID)
	name := ev.Name
	if name == "" {
		name = "tool"
	}
	t := &toolCall{id: ev.ID, name: name, parent: ev.Parent}
	s.tools[ev.ID] = t
	s.toolOrd = append(s.toolOrd, ev.ID)
	s.ev = Event{Kind: KindToolStart, Agent: ev.Agent, Line: ev.Line, Time: ev.Time,
		ID: ev.ID, Name: name, Parent: ev.Parent, Title: ev.Title}
	return t, s.emit(&s.ev)
}

func (s *Session) toolOutput(ev *Event) error {
	if s.ended.has(ev.ID) {
		s.stats.Duplicates++
		s.report(ev.Line, "output for ended tool call %q dropped", ev.ID)
		return nil
	}
	t, err := s.ensureTool(ev)
	if err != nil {
		return err
	}
	delta, revised, err := s.merge(&t.output, &t.ended, ev)
	if err != nil {
		return err
	}
	if revised {
		// Tool output cannot be taken back on screen: show what follows.
		s.stats.Revisions++
		delta = string(t.output)
	}
	if delta == "" {
		return nil
	}
	s.ev = *ev
	s.ev.Mode = Delta
	s.ev.Text = delta
	s.ev.Parent = t.parent
	return s.emit(&s.ev)
}

func (s *Session) toolEnd(ev *Event) error {
	if s.ended.has(ev.ID) {
		s.stats.Duplicates++
		s.report(ev.Line, "tool call %q ended twice; second end ignored", ev.ID)
		return nil
	}
	t, err := s.ensureTool(ev)
	if err != nil {
		return err
	}
	s.endTool(t)
	if ev.Output == "" && len(t.output) > 0 {
		ev.Output = string(t.output)
	}
	if ev.Name == "" {
		ev.Name = t.name
	}
	if ev.Parent == "" {
		ev.Parent = t.parent
	}
	if ev.Input == "" {
		ev.Input = t.input
	}
	if ev.Title == "" {
		ev.Title = t.title
	}
	if ev.Subject == "" {
		ev.Subject = t.subj
	}
	if ev.Status == "" {
		ev.Status = ToolOK
	}
	return s.emit(ev)
}

func (s *Session) endTool(t *toolCall) {
	delete(s.tools, t.id)
	t.ended = true
	for i, id := range s.toolOrd {
		if id == t.id {
			s.toolOrd = append(s.toolOrd[:i], s.toolOrd[i+1:]...)
			break
		}
	}
	s.ended.add(t.id)
}

func (s *Session) result(ev *Event) error {
	// Messages of the run are over; close them before the result.
	if err := s.closeMessages(ev.Line); err != nil {
		return err
	}
	answer := s.run.answer // copied only when it becomes the result's text
	switch {
	case ev.Text == "":
		ev.Text = string(answer)
	case !s.run.sawText:
		// The result holds text never shown (no assistant frames): show it once.
		if err := s.synthesizeAnswer(ev); err != nil {
			return err
		}
	case len(answer) > len(ev.Text) && string(answer[:len(ev.Text)]) == ev.Text:
		// result.result truncated to the first chunk (claude-code#78686).
		ev.Text = string(answer)
	}
	if len(ev.Text) != len(s.run.answer) || string(s.run.answer) != ev.Text {
		s.run.answer = append(s.run.answer[:0], ev.Text...)
	}
	s.run.answerMsg, s.run.answerEnd = nil, nil // text after the result starts a new answer
	s.run.hasResult = true
	s.run.ok = ev.OK
	s.run.reason = ev.Reason
	return s.emit(ev)
}

func (s *Session) synthesizeAnswer(res *Event) error {
	id := fmt.Sprintf("result@%d", res.Line)
	base := Event{Agent: res.Agent, Line: res.Line, Time: res.Time, Message: id, Role: RoleAssistant}
	s.ev = base
	s.ev.Kind = KindMessageStart
	if err := s.emit(&s.ev); err != nil {
		return err
	}
	s.ev = base
	s.ev.Kind = KindTextDelta
	s.ev.Text = res.Text
	if err := s.emit(&s.ev); err != nil {
		return err
	}
	s.run.sawText = true
	s.finished.add(id)
	s.ev = base
	s.ev.Kind = KindMessageStop
	return s.emit(&s.ev)
}

func (s *Session) closeMessages(line int) error {
	for len(s.msgOrder) > 0 {
		m := s.msgs[s.msgOrder[0]]
		s.forget(m)
		s.ev = Event{Kind: KindMessageStop, Line: line, Message: m.id, Role: m.role, Parent: m.parent}
		if err := s.emit(&s.ev); err != nil {
			return err
		}
	}
	return nil
}

// Settle copies the lent strings (see Options.Lent) the session still
// keeps: the text of blocks and tools that are still open. Texts that
// ended with their line are never copied.
func (s *Session) Settle() {
	for i, l := range s.lent {
		if !*l.closed && s.opts.Lent(unsafe.String(unsafe.SliceData(*l.text), len(*l.text))) {
			*l.text = append([]byte(nil), *l.text...)
		}
		s.lent[i] = lentText{}
	}
	s.lent = s.lent[:0]
}

// closeOpen closes every open message and tool call.
func (s *Session) closeOpen(line int) error {
	if err := s.closeMessages(line); err != nil {
		return err
	}
	for len(s.toolOrd) > 0 {
		t := s.tools[s.toolOrd[0]]
		s.endTool(t)
		s.ev = Event{Kind: KindToolEnd, Line: line, ID: t.id, Name: t.name, Parent: t.parent,
			Input: t.input, Title: t.title, Subject: t.subj, Status: ToolIncomplete, Output: string(t.output)}
		if err := s.emit(&s.ev); err != nil {
			return err
		}
	}
	return nil
}

// Close ends the stream (rule 6): what is still open is closed as
// incomplete, and a run without a result is reported.
func (s *Session) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if err := s.closeOpen(0); err != nil {
		return err
	}
	if n := s.stats.SnapshotAsDelta; n > 0 {
		if err := s.notice(0, fmt.Sprintf("repaired %d snapshot-as-delta chunk%s (the agent resent text it had already streamed)", n, plural(n))); err != nil {
			return err
		}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ring remembers the last n ids added, by a 64-bit hash of each (no copy
// of the id is kept; two ids of one stream sharing a hash is a chance of
// one in 2^64 per pair).
type ring struct {
	ids  []uint64
	set  map[uint64]int32
	next int
	seed maphash.Seed
}

func newRing(n int) ring {
	return ring{ids: make([]uint64, 0, n), set: make(map[uint64]int32, n), seed: maphash.MakeSeed()}
}

func (r *ring) add(id string) {
	h := maphash.String(r.seed, id)
	if _, ok := r.set[h]; ok {
		return
	}
	if len(r.ids) < cap(r.ids) {
		r.ids = append(r.ids, h)
	} else {
		old := r.ids[r.next]
		if r.set[old]--; r.set[old] <= 0 {
			delete(r.set, old)
		}
		r.ids[r.next] = h
		r.next = (r.next + 1) % len(r.ids)
	}
	r.set[h]++
}

func (r *ring) has(id string) bool {
	_, ok := r.set[maphash.String(r.seed, id)]
	return ok
}
