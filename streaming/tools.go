package streaming

import (
	"slices"
	"strings"
)

// toolCall is an open tool call: what tool.end needs that the agent may
// not repeat there, and its output so far (kept once, appended).
type toolCall struct {
	agent  string
	id     string
	name   string
	parent string
	input  string
	title  string
	subj   string
	seq    uint64
	output text
}

func (s *Session) toolStart(ev *Event) error {
	if _, ok := s.tools[ev.ID]; ok || (ev.ID != "" && s.ended.has(ev.ID)) {
		s.stats.Duplicates++
		s.report(ev.Line, "tool call %q started twice; second start ignored", ev.ID)
		return nil
	}
	s.openTool(ev.Agent, ev.ID, ev.Name, ev.Parent, ev.Input, ev.Title, ev.Subject)
	return s.out.Handle(ev)
}

func (s *Session) openTool(agent, id, name, parent, input, title, subj string) *toolCall {
	s.seq++
	t := &toolCall{agent: s.intern(agent), id: strings.Clone(id), name: strings.Clone(name), parent: strings.Clone(parent),
		input: strings.Clone(input), title: strings.Clone(title), subj: strings.Clone(subj), seq: s.seq}
	t.output.pool = &s.pool
	s.tools[t.id] = t
	return t
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
	t := s.openTool(ev.Agent, ev.ID, name, ev.Parent, "", ev.Title, "")
	s.ev = Event{Kind: KindToolStart, Agent: ev.Agent, Line: ev.Line, Time: ev.Time,
		ID: t.id, Name: t.name, Parent: t.parent, Title: t.title}
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
	delta, revised := s.merge(&t.output, mode, ev.Text, ev.Line)
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
	s.ev.Parent = t.parent
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
	s.endTool(t)
	s.ev = *ev
	e := &s.ev
	if e.Output == "" {
		e.Output = t.output.String()
	}
	if e.Name == "" {
		e.Name = t.name
	}
	if e.Parent == "" {
		e.Parent = t.parent
	}
	if e.Input == "" {
		e.Input = t.input
	}
	if e.Title == "" {
		e.Title = t.title
	}
	if e.Subject == "" {
		e.Subject = t.subj
	}
	if e.Status == "" {
		e.Status = ToolOK
	}
	err = s.out.Handle(e)
	t.output.release() // e.Output is not its pieces (String joins them anew)
	return err
}

// endTool ends t: O(1), however many calls are open.
func (s *Session) endTool(t *toolCall) {
	delete(s.tools, t.id)
	s.ended.put(t.id, struct{}{})
}

// closeTools ends the open tool calls as incomplete, in the order they
// started.
func (s *Session) closeTools(line int) error {
	if len(s.tools) == 0 {
		return nil
	}
	open := make([]*toolCall, 0, len(s.tools))
	for _, t := range s.tools {
		open = append(open, t)
	}
	slices.SortFunc(open, func(a, b *toolCall) int { return cmpSeq(a.seq, b.seq) })
	for _, t := range open {
		s.endTool(t)
		s.ev = Event{Kind: KindToolEnd, Agent: t.agent, Line: line, ID: t.id, Name: t.name, Parent: t.parent,
			Input: t.input, Title: t.title, Subject: t.subj, Status: ToolIncomplete, Output: t.output.String()}
		err := s.out.Handle(&s.ev)
		t.output.release()
		if err != nil {
			return err
		}
	}
	return nil
}
