package streaming

import (
	"fmt"
	"strings"
)

// SnapshotMinBytes is how much accumulated text a delta must repeat before
// it can be taken for a snapshot sent as a delta. Shorter
// repeats are genuine: "=" then "=" is two characters.
const SnapshotMinBytes = 32

// ExitDataErr is the exit status of a stream that breaks the contract
// under --strict (EX_DATAERR): every error of this contract, and the
// decoder's unparseable lines, report it.
const ExitDataErr = 65

// finishedMemory is how many stopped messages and ended tool calls of a
// run the session remembers, to know a late repeat of one. It bounds
// memory on endless runs.
const finishedMemory = 512

// Handler receives the session's output. The event and its strings are
// valid only during the call; a handler that keeps any of it copies it.
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
	// RunEnded, when set, is told each time a run ends (its result came:
	// true) and each time another begins (false): a follower of a log an
	// agent writes stops once the log's last run has ended.
	RunEnded func(ended bool)
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

// ExitCode is ExitDataErr.
func (e *ContractError) ExitCode() int { return ExitDataErr }

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

// answer is the final answer of a run: the text blocks of a message (the
// session keeps a block's text once, so the answer is not a copy of it),
// or a text of its own (a result's text that no message holds).
type answer struct {
	msg  *message
	text string
}

func (a *answer) String() string {
	if a.msg != nil {
		return a.msg.answerText()
	}
	return a.text
}

// single is the one block the answer is, if it is one block.
func (a *answer) single() *block {
	if a.msg == nil {
		return nil
	}
	if one, n := a.msg.answerBlocks(); n == 1 {
		return one
	}
	return nil
}

// equal reports whether the answer is s, without copying it.
func (a *answer) equal(s string) bool {
	if b := a.single(); b != nil {
		return b.text.Equal(s)
	}
	return a.String() == s
}

// extends reports whether the answer is longer than s and begins with it.
func (a *answer) extends(s string) bool {
	if b := a.single(); b != nil {
		return b.text.Len() > len(s) && b.text.HasPrefix(s)
	}
	t := a.String()
	return len(t) > len(s) && strings.HasPrefix(t, s)
}

// run is the state of one agent run (from one session.start to the next).
type run struct {
	Run            // the run's figures, as handlers read them (State.Run)
	sawText bool   // assistant text was shown in this run
	answer  answer // the last top-level assistant message with text, or the result's text
}

// Session enforces the streaming contract between parsers and
// renderers (see the package documentation). It is not safe for
// concurrent use.
type Session struct {
	out   Handler
	opts  Options
	stats Stats

	msgs    map[string]*message // open messages
	tools   map[string]*Call    // open tool calls
	seq     uint64              // start order of open messages and tools, for closing them in order
	stopped ring[*stopped]      // the stopped messages of this run
	ended   ring[struct{}]      // ended tool ids of this run

	run     run
	pool    pieces // pieces of texts let go, for the next texts
	agent   string // the agent of the last message or tool call opened (see intern)
	started bool   // any event at all
	closed  bool

	ev Event // scratch event handed to out, to avoid an allocation per delta
}

// NewSession returns a session that passes its output to out (and hands
// itself to out first, if out is a StateUser).
func NewSession(out Handler, opts Options) *Session {
	s := &Session{
		out:     out,
		opts:    opts,
		msgs:    make(map[string]*message),
		tools:   make(map[string]*Call),
		stopped: newRing[*stopped](finishedMemory),
		ended:   newRing[struct{}](finishedMemory),
	}
	if u, ok := out.(StateUser); ok {
		u.UseState(s)
	}
	return s
}

// Stats returns the repair counters so far.
func (s *Session) Stats() Stats { return s.stats }

// Outcome returns the outcome of the last run and, for a failure or an
// incomplete run, why.
func (s *Session) Outcome() (Outcome, string) {
	if !s.run.Done {
		return Incomplete, "the stream ended before the run finished"
	}
	if s.run.OK {
		return Success, ""
	}
	return Failure, s.run.Reason
}

// FinalAnswer is the final answer of the last run: the result's text when
// the agent gave one, else the last top-level assistant message.
func (s *Session) FinalAnswer() string { return s.run.answer.String() }

// intern returns agent, copied once for the messages and tool calls that
// keep it: the events the session makes when it closes them carry it.
func (s *Session) intern(agent string) string {
	if agent != s.agent {
		s.agent = strings.Clone(agent)
	}
	return s.agent
}

func (s *Session) report(line int, format string, args ...any) {
	if s.opts.Report != nil {
		s.opts.Report(line, fmt.Sprintf(format, args...))
	}
}

// Push hands one parser event to the session: for a text-like event, a
// delta (new text for the block); see Snapshot and Final. The session does not
// change ev, and keeps none of its strings without copying them.
func (s *Session) Push(ev *Event) error { return s.push(ev, Delta) }

// Snapshot hands the session a text-like event (text.delta,
// thinking.delta, tool.output.delta) whose Text is the whole block, or the
// whole output, so far: the session passes on what is new of it (or a
// revision, when it rewrites what was shown). Any other event is pushed
// as Push does.
func (s *Session) Snapshot(ev *Event) error { return s.push(ev, Snapshot) }

// Final is Snapshot for the complete block or output, sent after (or
// instead of) its streaming.
func (s *Session) Final(ev *Event) error { return s.push(ev, Final) }

// Restate hands the session a piece of an agent repeating a block it
// sent: the current block (the one that showed text last) of the open
// message ev.Restates names — a consolidated restatement of a message it
// streamed, sent under a new id on the wire; an echo of the prompt it was
// sent. The pieces of one restatement come in order, for the message and
// block that take what is not a repetition (a message of its own, or a
// block its message has not shown). The session compares them with the
// block it holds: what repeats it (white space around either aside)
// shows nothing; what goes on past its end is shown; a restatement that
// departs from the block is new text, shown whole (what it repeated
// included), and so is every later piece. When the message named is not
// open, or has no current block of the event's kind, the text is new.
func (s *Session) Restate(ev *Event) error { return s.push(ev, Restate) }

// PushAs hands ev to Push, Snapshot, Final or Restate as mode says.
func (s *Session) PushAs(mode Mode, ev *Event) error { return s.push(ev, mode) }

func (s *Session) push(ev *Event, mode Mode) error {
	s.started = true
	if ev.Kind == KindSessionStart {
		return s.sessionStart(ev)
	}
	if s.run.Done && s.beginsRun(ev, mode) {
		s.nextRun(nil)
	}
	s.run.note(ev)
	switch ev.Kind {
	case KindMessageStart:
		return s.messageStart(ev)
	case KindMessageStop:
		return s.messageStop(ev)
	case KindTextDelta, KindThinkingDelta:
		return s.text(ev, mode)
	case KindToolStart:
		return s.toolStart(ev)
	case KindToolOutputDelta:
		return s.toolOutput(ev, mode)
	case KindToolEnd:
		return s.toolEnd(ev)
	case KindResult:
		return s.result(ev)
	}
	return s.out.Handle(ev)
}

// sessionStart begins a run: what the last one left open is closed, and
// its identities are forgotten (rule 5: identity is scoped to a run).
func (s *Session) sessionStart(ev *Event) error {
	if err := s.endRun(ev.Line, "a new run began before this one finished"); err != nil {
		return err
	}
	s.nextRun(ev)
	s.stats.Runs++
	s.run.note(ev)
	return s.out.Handle(ev)
}

// beginsRun reports whether ev, coming after the run's result, is the
// work of another run (rule 5: identity is scoped to a run): a message
// started, text of a message the run did not stop, a tool call it did not
// start, another result. A log of two runs without a session.start
// between them (two "claude -p /cost") shows both. What the finished run
// may still send is not: a repeat of its messages or tool calls, output
// and ends of its calls still running, the work nested under a call still
// running (a sub-agent that outlives its parent's turn), status lines.
func (s *Session) beginsRun(ev *Event, mode Mode) bool {
	if ev.Parent != "" {
		if _, open := s.tools[ev.Parent]; open {
			return false
		}
	}
	switch ev.Kind {
	case KindMessageStart, KindResult:
		return true
	case KindTextDelta, KindThinkingDelta:
		if mode == Delta {
			return true
		}
		_, ok := s.stopped.get(ev.Message)
		return !ok
	case KindToolStart:
		_, open := s.tools[ev.ID]
		return !open && !s.ended.has(ev.ID)
	}
	return false
}

// nextRun begins a run: the last run's identities are forgotten. start
// is its session.start, nil for a run that came without one after the
// last one's result; then the last run's tool calls still running
// (background tasks) stay open.
func (s *Session) nextRun(start *Event) {
	s.dropAnswer(nil)
	s.run.sawText, s.run.answer = false, answer{}
	s.run.begin(start)
	if s.opts.RunEnded != nil {
		s.opts.RunEnded(false)
	}
	s.stopped.reset()
	s.ended.reset()
}

// endRun closes what a run left open when another run starts.
func (s *Session) endRun(line int, why string) error {
	if s.stats.Runs == 0 && !s.run.Done && len(s.msgs) == 0 && len(s.tools) == 0 {
		return nil
	}
	if err := s.closeOpen(line); err != nil {
		return err
	}
	if !s.run.Done && s.stats.Runs > 0 {
		return s.notice(line, why)
	}
	return nil
}

func (s *Session) notice(line int, text string) error {
	s.ev = Event{Kind: KindNotice, Line: line, Text: text}
	return s.out.Handle(&s.ev)
}

func (s *Session) result(ev *Event) error {
	// Messages of the run are over; close them before the result.
	if err := s.closeMessages(ev.Line); err != nil {
		return err
	}
	s.ev = *ev
	res := &s.ev
	// The answer shown is compared with the result's text where it is
	// kept: a long answer is not copied to be compared.
	switch {
	case res.Text == "":
		res.Text = s.run.answer.String()
	case !s.run.sawText:
		// The result holds text never shown (no assistant frames): show it once.
		if err := s.synthesizeAnswer(res); err != nil {
			return err
		}
	case s.run.answer.extends(res.Text):
		// result.result truncated to the first chunk (claude-code#78686).
		res.Text = s.run.answer.String()
	}
	if !s.run.answer.equal(res.Text) {
		s.dropAnswer(nil)
		s.run.answer = answer{text: strings.Clone(res.Text)}
	}
	s.run.result(res)
	if s.opts.RunEnded != nil {
		s.opts.RunEnded(true)
	}
	return s.out.Handle(res)
}

// synthesizeAnswer shows a result's text as an assistant message. res is
// the session's scratch event: its fields are saved first.
func (s *Session) synthesizeAnswer(res *Event) error {
	saved := *res
	id := fmt.Sprintf("result@%d", saved.Line)
	base := Event{Agent: saved.Agent, Line: saved.Line, Time: saved.Time, Message: id, Role: RoleAssistant}
	for _, kind := range [...]Kind{KindMessageStart, KindTextDelta, KindBlockStop, KindMessageStop} {
		s.ev = base
		s.ev.Kind = kind
		switch kind {
		case KindTextDelta:
			s.ev.Text = saved.Text
		case KindBlockStop:
			s.ev.BlockKind = KindTextDelta
		}
		if err := s.out.Handle(&s.ev); err != nil {
			return err
		}
	}
	s.run.sawText = true
	s.stopped.put(id, &stopped{blocks: []shownBlock{{key: blockKey{kind: KindTextDelta}}}, next: 1})
	s.ev = saved
	return nil
}

// closeOpen closes every open message and tool call.
func (s *Session) closeOpen(line int) error {
	if err := s.closeMessages(line); err != nil {
		return err
	}
	return s.closeTools(line)
}

// Close ends the stream (rule 7): what is still open is closed as
// incomplete, and repairs are reported.
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
