package streaming

import (
	"hash/maphash"
	"slices"
	"strings"
)

// Call is a tool call the session holds open, from its tool.start to the
// Handle of its tool.end (or of the end the session makes for it): what a
// renderer shows of a running call, and what its end line needs of its
// start, read here instead of kept in a copy of its own (State). Its fields are the session's: a handler reads them and
// sets only Mark.
type Call struct {
	ID, Name, Parent, Title, Subject string
	Category                         string // as Event.Category
	Input                            string // the input as the start gave it (JSON)
	// Depth is how deep the work the call starts is nested: 1 for a call
	// of the main agent, one more for each subagent level (a call whose
	// Parent is not open counts as one level down).
	Depth int
	// Edits are the file changes the start named (the session's copy:
	// a tool.end names its own, if any).
	Edits []FileEdit
	// Mark is the handler's own: the session keeps it with the call and
	// never reads it (a renderer's item for the call, the label it made).
	Mark any
	// RepeatsAnswer is set during the Handle of the call's tool.end when
	// its output is the last message of the work it started (a subagent's
	// answer, which was shown under it as text): a renderer that showed
	// that text need not show the output again.
	RepeatsAnswer bool

	// (the booleans side by side: a Call is held for every open call,
	// and each word counts)
	hasAnswer bool
	implicit  bool   // started by the session, under the name "tool"
	answer    uint64 // the hash of the last text of the work under the call (hasAnswer)
	agent     string
	seq       uint64
	output    *text // the output so far (kept once, appended; nil: none yet)
}

// Output is the call's output so far.
func (c *Call) Output() string {
	if c.output == nil {
		return ""
	}
	return c.output.String()
}

// OutputLen is the length of the call's output so far.
func (c *Call) OutputLen() int {
	if c.output == nil {
		return 0
	}
	return c.output.Len()
}

// OutputTail is the last n bytes of the call's output so far (fewer when
// it is shorter), without joining the rest.
func (c *Call) OutputTail(n int) string {
	l := c.OutputLen()
	if n >= l {
		return c.Output()
	}
	return c.output.slice(l-n, l)
}

// State is what a Handler may read of the session while it handles an
// event: the tool calls open at that event. *Session implements it.
type State interface {
	// Call is the open tool call id, or nil. During the Handle of a
	// tool.end the call is still there.
	Call(id string) *Call
	// Calls are the open tool calls, in the order they started.
	Calls() []*Call
	// Run is the run being read, with the event being handled counted.
	Run() *Run
}

// StateUser is a Handler that reads the session's state (a renderer):
// NewSession hands it the session before any event.
type StateUser interface {
	UseState(State)
}

// Call returns the open tool call id, or nil (see State).
func (s *Session) Call(id string) *Call { return s.tools[id] }

// Run returns the run being read (see State).
func (s *Session) Run() *Run { return &s.run.Run }

// Calls returns the open tool calls in the order they started.
func (s *Session) Calls() []*Call {
	open := make([]*Call, 0, len(s.tools))
	for _, t := range s.tools {
		open = append(open, t)
	}
	slices.SortFunc(open, func(a, b *Call) int { return cmpSeq(a.seq, b.seq) })
	return open
}

func (s *Session) toolStart(ev *Event) error {
	if t, ok := s.tools[ev.ID]; ok {
		t.update(ev)
		return nil
	}
	if ev.ID != "" && s.ended.has(ev.ID) {
		s.stats.Duplicates++
		s.report(ev.Line, "tool call %q started again after its end; dropped", ev.ID)
		return nil
	}
	t := s.openTool(ev.Agent, ev.ID, ev.Name, ev.Parent, ev.Input, ev.Title, ev.Subject)
	t.Edits = CloneEdits(ev.Edits)
	t.Category = kept(t.Category, ev.Category)
	return s.out.Handle(ev)
}

// update takes what a repeated tool.start of the open call c says more:
// a later state of a call on the wire (an item updated, a frame after
// its stream) may know its title, input, subject or file edits, which
// then replace the call's. Its name replaces only the one the session
// made up for a call started implicitly ("tool"), and its category the
// one the session had none or a made-up name's for; its id, parent and
// depth never change. Nothing is passed on: the call's line is shown
// once, and its end and a renderer's view of the open call (State) read
// what the update left.
func (c *Call) update(ev *Event) {
	if ev.Title != "" {
		c.Title = strings.Clone(ev.Title)
	}
	if ev.Input != "" {
		c.Input = strings.Clone(ev.Input)
	}
	if ev.Subject != "" {
		c.Subject = strings.Clone(ev.Subject)
	}
	if len(ev.Edits) > 0 {
		c.Edits = CloneEdits(ev.Edits)
	}
	if ev.Name != "" && c.implicit {
		c.Name, c.implicit = strings.Clone(ev.Name), false
		c.Category = "" // the made-up name's
	}
	if ev.Category != "" && c.Category == "" {
		c.Category = strings.Clone(ev.Category)
	}
}

func (s *Session) openTool(agent, id, name, parent, input, title, subj string) *Call {
	s.seq++
	t := &Call{agent: s.intern(agent), ID: strings.Clone(id), Name: strings.Clone(name), Parent: strings.Clone(parent),
		Input: strings.Clone(input), Title: strings.Clone(title), Subject: strings.Clone(subj), seq: s.seq, Depth: 1}
	if t.Parent != "" {
		t.Depth = 2
		if p := s.tools[t.Parent]; p != nil {
			t.Depth = p.Depth + 1
		}
	}
	s.tools[t.ID] = t
	return t
}

// ensureTool returns the open tool call of ev, starting it implicitly.
func (s *Session) ensureTool(ev *Event) (*Call, error) {
	if t, ok := s.tools[ev.ID]; ok {
		return t, nil
	}
	s.stats.Implicit++
	s.report(ev.Line, "tool call %q has no start; started implicitly", ev.ID)
	name := ev.Name
	if name == "" {
		name = "tool"
	}
	t := s.openTool(ev.Agent, ev.ID, name, ev.Parent, "", ev.Title, "")
	t.Category = strings.Clone(ev.Category)
	t.implicit = ev.Name == ""
	s.ev = Event{Kind: KindToolStart, Agent: ev.Agent, Line: ev.Line, Time: ev.Time,
		ID: t.ID, Name: t.Name, Parent: t.Parent, Title: t.Title, Category: t.Category}
	return t, s.out.Handle(&s.ev)
}

// toolOutput passes on a tool call's output. A delta is passed on as it
// came, whatever it repeats (a command prints the same line as often as
// it likes); snapshots and finals are turned into deltas.
func (s *Session) toolOutput(ev *Event, mode Mode) error {
	if s.ended.has(ev.ID) {
		s.stats.Duplicates++
		s.report(ev.Line, "output for ended tool call %q dropped", ev.ID)
		return nil
	}
	t, err := s.ensureTool(ev)
	if err != nil {
		return err
	}
	if t.output == nil {
		t.output = &text{pool: &s.pool}
	}
	delta, revised := s.merge(t.output, mode, ev.Text, ev.Line)
	if revised {
		// Tool output cannot be taken back on screen: show what follows.
		s.stats.Revisions++
		delta = t.output.String()
	}
	if delta == "" {
		return nil
	}
	s.ev = *ev
	s.ev.Text = delta
	s.ev.Parent = t.Parent
	return s.out.Handle(&s.ev)
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
	s.ev = *ev
	e := &s.ev
	if e.Output == "" {
		e.Output = t.Output()
	}
	if e.Name == "" {
		e.Name = t.Name
	}
	if e.Parent == "" {
		e.Parent = t.Parent
	}
	if e.Input == "" {
		e.Input = t.Input
	}
	if e.Title == "" {
		e.Title = t.Title
	}
	if e.Subject == "" {
		e.Subject = t.Subject
	}
	if e.Category == "" {
		e.Category = t.Category
	}
	if e.Status == "" {
		e.Status = ToolOK
	}
	t.RepeatsAnswer = t.hasAnswer && e.Output != "" && s.answerHash(e.Output) == t.answer
	s.run.toolEnded(e)
	err = s.out.Handle(e) // (the call is still open: State.Call finds it)
	s.endTool(t)
	return err
}

// answerHash is the hash a call keeps of its work's last text, and of its
// output to compare: the white space around them does not count.
func (s *Session) answerHash(text string) uint64 {
	return maphash.String(s.stopped.seed, strings.TrimSpace(text))
}

// endTool ends t: O(1), however many calls are open. Its output's pieces
// go back to the pool (an event's Output is not them: String joins them
// anew).
func (s *Session) endTool(t *Call) {
	delete(s.tools, t.ID)
	s.ended.put(t.ID, struct{}{})
	if t.output != nil {
		t.output.release()
	}
	t.Edits, t.Mark = nil, nil
}

// closeTools ends the open tool calls as incomplete, in the order they
// started.
func (s *Session) closeTools(line int) error {
	if len(s.tools) == 0 {
		return nil
	}
	for _, t := range s.Calls() {
		s.ev = Event{Kind: KindToolEnd, Agent: t.agent, Line: line, ID: t.ID, Name: t.Name, Parent: t.Parent,
			Input: t.Input, Title: t.Title, Subject: t.Subject, Category: t.Category, Status: ToolIncomplete, Output: t.Output()}
		s.run.toolEnded(&s.ev)
		err := s.out.Handle(&s.ev)
		s.endTool(t)
		if err != nil {
			return err
		}
	}
	return nil
}
